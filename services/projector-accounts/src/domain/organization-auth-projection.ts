// Pure projection of organization auth flags and SSO providers (accounts.organization.updated,
// accounts.provider.*). All of an organization's events share its partition, so the facts read
// first (versions, the active providers, the flags) are the same on every replay.
import { checkExpectedVersion, type DecodedEvent, type ProviderInfo } from '@llm/events';
import type { Projection, SqlStatement } from './projection.ts';
import { endpointsChanged } from './provider-endpoints.ts';

export type OrganizationAuthEvent =
  | DecodedEvent<'accounts.organization.updated'>
  | DecodedEvent<'accounts.provider.created'>
  | DecodedEvent<'accounts.provider.updated'>
  | DecodedEvent<'accounts.provider.tested'>
  | DecodedEvent<'accounts.provider.deleted'>;

export interface OrganizationAuthFactsNeeded { organizationId: string; providerId?: string; slug?: string }

export interface OrganizationAuthFacts {
  /** The organization's version, slug and flags; undefined when it does not exist. */
  organization?: { version: number; slug: string; flags: Record<string, unknown> };
  /** The provider with the event's id in this organization, as stored. */
  provider?: {
    version: number; slug: string; flags: Record<string, unknown>;
    issuerUrl: string; extra: Record<string, unknown>; clientSecretSealed: string;
  };
  /** Another provider of the organization has the slug. */
  slugTaken: boolean;
  /** Ids of the organization's providers that are active and valid. */
  activeValidProviders: string[];
}

export function organizationAuthFactsNeeded(e: OrganizationAuthEvent): OrganizationAuthFactsNeeded {
  switch (e.type) {
    case 'accounts.organization.updated': return { organizationId: e.payload.organization_id };
    case 'accounts.provider.created':
    case 'accounts.provider.updated':
      return { organizationId: e.payload.provider.organization_id, providerId: e.payload.provider.provider_id, slug: e.payload.provider.slug };
    default: return { organizationId: e.payload.organization_id, providerId: e.payload.provider_id };
  }
}

const parse = (json: string): Record<string, unknown> => {
  try { const v: unknown = JSON.parse(json || '{}'); return v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {}; } catch { return {}; }
};
const isLive = (flags: Record<string, unknown>): boolean => flags.is_active === true && flags.is_valid === true;

export const NO_ACTIVE_PROVIDER = 'SSO needs at least one active and valid provider.';
export const LAST_PROVIDER = 'Cannot delete the last active and verified SSO provider while SSO is enabled.';

export function projectOrganizationAuthEvent(e: OrganizationAuthEvent, f: OrganizationAuthFacts): Projection {
  const at = new Date(e.timeUs / 1000).toISOString();
  if (!f.organization) return { status: 'rejected', reason: 'Organization not found' };
  switch (e.type) {
    case 'accounts.organization.updated': {
      const check = checkExpectedVersion(e.expectedVersion, f.organization.version);
      if (!check.ok) return { status: 'rejected', reason: check.reason };
      const flags = parse(e.payload.flags_json);
      // Decided here too (not only by the command): a provider may have gone since the command looked.
      if (flags.allow_sso === true && f.organization.flags.allow_sso !== true && f.activeValidProviders.length === 0) {
        return { status: 'rejected', reason: NO_ACTIVE_PROVIDER };
      }
      return {
        status: 'applied',
        statements: [{
          text: 'UPDATE organizations SET name = $2, description = $3, flags = $4::jsonb, updated_at = $5, version = version + 1 WHERE id = $1',
          values: [e.payload.organization_id, e.payload.name, e.payload.description || null, JSON.stringify(flags), at],
        }],
      };
    }
    case 'accounts.provider.created': {
      const p = e.payload.provider;
      if (f.provider) return { status: 'rejected', reason: 'Provider already exists' };
      if (f.slugTaken) return { status: 'rejected', reason: `Provider with slug '${p.slug}' already exists` };
      return { status: 'applied', statements: [upsertProvider(p, at, true)] };
    }
    case 'accounts.provider.updated': {
      const p = e.payload.provider;
      if (!f.provider) return { status: 'rejected', reason: 'Provider not found' };
      const check = checkExpectedVersion(e.expectedVersion, f.provider.version);
      if (!check.ok) return { status: 'rejected', reason: check.reason };
      if (f.slugTaken) return { status: 'rejected', reason: `Provider with slug '${p.slug}' already exists` };
      // Pointed at another party (issuer or an endpoint): that party gets neither the stored client
      // secret (only one sent with this change: a sealed value equal to the stored one was merely
      // carried over) nor the users linked through the old one, and it is untested.
      const moved = endpointsChanged({ issuer_url: f.provider.issuerUrl, extra: f.provider.extra }, { issuer_url: p.issuer_url, extra: parse(p.extra_json) });
      const flags = moved ? { ...parse(p.flags_json), is_valid: false, is_active: false } : parse(p.flags_json);
      if (lastLiveGoes(f, p.provider_id, flags)) return { status: 'rejected', reason: LAST_PROVIDER };
      if (!moved) return { status: 'applied', statements: [upsertProvider(p, at, false)] };
      const secret = p.client_secret_sealed === f.provider.clientSecretSealed ? '' : p.client_secret_sealed;
      return {
        status: 'applied',
        statements: [
          upsertProvider({ ...p, flags_json: JSON.stringify(flags), client_secret_sealed: secret }, at, false),
          // The identity string of sign-ins through this provider until now (see @llm/web-session's ssoIdentity).
          { text: 'DELETE FROM user_identities WHERE method = $1', values: [`sso:${f.organization.slug}:${f.provider.slug}`] },
        ],
      };
    }
    case 'accounts.provider.tested': {
      const p = e.payload;
      if (!f.provider) return { status: 'rejected', reason: 'Provider not found' };
      // The verdict is about the provider as the command read it; it may have moved since.
      const check = checkExpectedVersion(e.expectedVersion, f.provider.version);
      if (!check.ok) return { status: 'rejected', reason: check.reason };
      // Without a client secret the provider cannot sign anyone in, whatever its discovery says.
      const passed = p.passed && f.provider.clientSecretSealed !== '';
      const flags = { ...f.provider.flags, is_valid: passed, is_active: passed };
      // A failed test deactivates the provider even when it was SSO's last one: the verdict is a fact.
      return {
        status: 'applied',
        statements: [{ text: 'UPDATE organization_providers SET flags = $2::jsonb, updated_at = $3, version = version + 1 WHERE id = $1', values: [p.provider_id, JSON.stringify(flags), at] }],
      };
    }
    case 'accounts.provider.deleted': {
      const p = e.payload;
      if (!f.provider) return { status: 'rejected', reason: 'Provider not found' };
      if (lastLiveGoes(f, p.provider_id, {})) return { status: 'rejected', reason: LAST_PROVIDER };
      return { status: 'applied', statements: [{ text: 'DELETE FROM organization_providers WHERE id = $1', values: [p.provider_id] }] };
    }
  }
}

/** With SSO on, the change would leave no active and valid provider. */
function lastLiveGoes(f: OrganizationAuthFacts, providerId: string, after: Record<string, unknown>): boolean {
  if (f.organization?.flags.allow_sso !== true) return false;
  const others = f.activeValidProviders.filter((id) => id !== providerId);
  return others.length === 0 && !isLive(after) && f.activeValidProviders.includes(providerId);
}

function upsertProvider(p: ProviderInfo, at: string, create: boolean): SqlStatement {
  const values = [p.provider_id, p.organization_id, p.slug, p.name || null, p.description || null, JSON.stringify(parse(p.flags_json)),
    p.issuer_url, p.client_id, p.client_secret_sealed, p.scopes, JSON.stringify(parse(p.extra_json)), at];
  return create
    ? {
      text: `INSERT INTO organization_providers (id, organization_id, slug, name, description, flags, issuer_url, client_id, client_secret_sealed, scopes, extra, created_at)
             VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11::jsonb, $12)`,
      values,
    }
    : {
      text: `UPDATE organization_providers SET slug = $3, name = $4, description = $5, flags = $6::jsonb, issuer_url = $7, client_id = $8,
               client_secret_sealed = $9, scopes = $10, extra = $11::jsonb, updated_at = $12, version = version + 1
             WHERE id = $1 AND organization_id = $2`,
      values,
    };
}
