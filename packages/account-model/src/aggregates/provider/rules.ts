// SSO providers of an organization (reference §5), keyed by their organization like its flags. A
// provider becomes active only by passing its test; pointed at another party it loses its client
// secret and the sign-ins linked through it; with SSO on, the last live provider cannot go.
import type { ProviderInfo } from '@llm/events';
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, checkVersion, reject, type Decision } from '../../decision.ts';
import { isLive, parseFlags, type Flags, type OrganizationAuthState, type ProviderState } from '../organization/rules.ts';
import { endpointsChanged } from './endpoints.ts';
import { sameId } from '../ids.ts';

export type ProviderEventType = 'accounts.provider.created' | 'accounts.provider.updated' | 'accounts.provider.tested' | 'accounts.provider.deleted'
  | 'accounts.provider.secret_resealed';
export type ProviderEvent = AccountEvent<ProviderEventType>;

export const PROVIDER_REJECTIONS = {
  organization_not_found: 'not_found',
  provider_not_found: 'not_found',
  provider_exists: 'conflict',
  provider_slug_exists: 'conflict',
  provider_changed: 'conflict',
  sso_last_provider: 'invalid',
  sso_fallback_required: 'invalid',
  provider_untested: 'invalid',
} as const;
export type ProviderRejection = keyof typeof PROVIDER_REJECTIONS;

export const LAST_PROVIDER = 'Cannot delete the last active and verified SSO provider while SSO is enabled.';
const notFound = () => reject('provider_not_found', 'Provider not found');
const changed = (d: Decision) => reject('provider_changed', 'The provider changed meanwhile; read it again and retry.', d.status === 'rejected' ? d.details : undefined);

const organizationOf = (e: ProviderEvent): string => (e.type === 'accounts.provider.created' || e.type === 'accounts.provider.updated' ? e.payload.provider.organization_id : e.payload.organization_id);
const providerIdOf = (e: ProviderEvent): string => (e.type === 'accounts.provider.created' || e.type === 'accounts.provider.updated' ? e.payload.provider.provider_id : e.payload.provider_id);

/** The provider as an update leaves it: moved to another party, it is untested and keeps only a secret sent with this change. */
export function providerAfterUpdate(before: ProviderState, p: ProviderInfo): ProviderState & { moved: boolean } {
  const extra = parseFlags(p.extra_json);
  const moved = endpointsChanged({ issuer_url: before.issuerUrl, extra: before.extra }, { issuer_url: p.issuer_url, extra });
  const flags = moved ? { ...parseFlags(p.flags_json), is_valid: false, is_active: false } : parseFlags(p.flags_json);
  // A sealed value equal to the stored one was merely carried over by the command, not sent.
  const secret = moved && p.client_secret_sealed === before.clientSecretSealed ? '' : p.client_secret_sealed;
  return { id: before.id, slug: p.slug, version: before.version + 1, flags, issuerUrl: p.issuer_url, extra, clientSecretSealed: secret, moved };
}

/** A test's verdict: without a client secret the provider cannot sign anyone in, whatever its discovery says. */
export function providerAfterTest(before: ProviderState, passed: boolean): ProviderState {
  const ok = passed && before.clientSecretSealed !== '';
  return { ...before, version: before.version + 1, flags: { ...before.flags, is_valid: ok, is_active: ok } };
}

/** The provider with its client secret sealed anew (the same secret): a change like any other, so it bumps the version. */
export function providerAfterReseal(before: ProviderState, sealed: string): ProviderState {
  return { ...before, version: before.version + 1, clientSecretSealed: sealed };
}

/** With SSO on, the change would leave no active and valid provider. */
function lastLiveGoes(s: OrganizationAuthState, providerId: string, after: Flags): boolean {
  if (s.organization?.flags.allow_sso !== true) return false;
  const live = s.providers.filter(isLive);
  return live.length === 1 && sameId(live[0]!.id, providerId) && !isLive({ flags: after });
}

export const providerRules = rules({
  eventTypes: ['accounts.provider.created', 'accounts.provider.updated', 'accounts.provider.tested', 'accounts.provider.deleted', 'accounts.provider.secret_resealed'],
  rejections: PROVIDER_REJECTIONS,

  decide(e: ProviderEvent, s: OrganizationAuthState): Decision<ProviderRejection> {
    if (!s.organization || !sameId(s.organization.id, organizationOf(e))) return reject('organization_not_found', 'Organization not found');
    const id = providerIdOf(e);
    const current = s.providers.find((x) => sameId(x.id, id));
    const slugTaken = (slug: string) => s.providers.some((x) => x.slug === slug && !sameId(x.id, id));
    switch (e.type) {
      case 'accounts.provider.created':
        if (current) return reject('provider_exists', 'Provider already exists');
        if (slugTaken(e.payload.provider.slug)) return reject('provider_slug_exists', `Provider with slug '${e.payload.provider.slug}' already exists`);
        return accepted;
      case 'accounts.provider.updated': {
        if (!current) return notFound();
        const v = checkVersion('provider_changed', 'provider', e.expectedVersion, current.version);
        if (v.status === 'rejected') return changed(v);
        if (slugTaken(e.payload.provider.slug)) return reject('provider_slug_exists', `Provider with slug '${e.payload.provider.slug}' already exists`);
        return lastLiveGoes(s, id, providerAfterUpdate(current, e.payload.provider).flags) ? reject('sso_last_provider', LAST_PROVIDER) : accepted;
      }
      case 'accounts.provider.tested': {
        if (!current) return notFound();
        // The verdict is about the provider as the command read it; it may have moved since.
        const v = checkVersion('provider_changed', 'provider', e.expectedVersion, current.version);
        // A failed test deactivates the provider even when it was SSO's last one: the verdict is a fact.
        return v.status === 'rejected' ? changed(v) : accepted;
      }
      case 'accounts.provider.deleted':
        if (!current) return notFound();
        return lastLiveGoes(s, id, {}) ? reject('sso_last_provider', LAST_PROVIDER) : accepted;
      case 'accounts.provider.secret_resealed': {
        if (!current) return notFound();
        // The same secret under another key, for the provider as the rotation read it: a secret
        // sent or dropped since must not be overwritten by the older one.
        const v = checkVersion('provider_changed', 'provider', e.expectedVersion, current.version);
        return v.status === 'rejected' ? changed(v) : accepted;
      }
    }
  },
});

// Rules of the provider commands that come before any event.

const NEEDS_FALLBACK = 'To modify domains or SSO providers, enable email or social authentication for this organization, or enable root access for owners.';

/** Changing providers must not lock everyone out: another way in must be on. */
export function decideProviderChange(organizationFlags: Flags): Decision<ProviderRejection> {
  const f = organizationFlags;
  return f.allow_email !== true && f.allow_social !== true && f.allow_root !== true ? reject('sso_fallback_required', NEEDS_FALLBACK) : accepted;
}

/** A provider becomes valid and active only by passing its test, whatever the client sends. */
export function decideProviderFlags(stored: Flags, next: Flags, sent: Flags | undefined): Decision<ProviderRejection> {
  if (next.is_active === true && next.is_valid !== true) return reject('provider_untested', 'A provider becomes active by passing its test.');
  if (sent?.is_valid === true && stored.is_valid !== true) return reject('provider_untested', 'A provider becomes valid by passing its test.');
  return accepted;
}
