// An organization's name, description and auth flags (reference §3.5). Every organization event,
// its SSO providers' included (provider.ts), is keyed `organization:<id>`, so the flags are decided
// on the providers as they are at that point of the log.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, checkVersion, reject, type Decision } from '../../decision.ts';

export type OrganizationEventType = 'accounts.organization.updated';
export type OrganizationEvent = AccountEvent<OrganizationEventType>;
export type Flags = Record<string, unknown>;

/** One SSO provider of the organization, as its rules see it. */
export interface ProviderState {
  id: string; slug: string; version: number; flags: Flags;
  issuerUrl: string; extra: Flags; clientSecretSealed: string;
}

/** An organization with its providers (a handful) and how many domains it has verified. */
export interface OrganizationAuthState {
  organization?: { id: string; slug: string; version: number; flags: Flags };
  providers: ProviderState[];
  verifiedDomains: number;
}

export const ORGANIZATION_REJECTIONS = {
  organization_not_found: 'not_found',
  organization_changed: 'conflict',
  organization_flags_invalid: 'invalid',
  organization_slug_immutable: 'invalid',
} as const;
export type OrganizationRejection = keyof typeof ORGANIZATION_REJECTIONS;

export const parseFlags = (json: string): Flags => {
  try { const v: unknown = JSON.parse(json || '{}'); return v && typeof v === 'object' && !Array.isArray(v) ? v as Flags : {}; } catch { return {}; }
};
export const isLive = (p: Pick<ProviderState, 'flags'>): boolean => p.flags.is_active === true && p.flags.is_valid === true;

const INVALID = 'Invalid request data for organization update.';
const invalidFlags = (why: string) => reject('organization_flags_invalid', `${INVALID} ${why}`);

/** The rules on a set of auth flags: SSO needs a live provider; auto-join and domains-only a verified domain. */
export function decideFlags(s: OrganizationAuthState, flags: Flags): Decision<OrganizationRejection> {
  if (flags.allow_sso === true && !s.providers.some(isLive)) return invalidFlags('SSO needs an active and valid SSO provider.');
  if ((flags.auto_join === true || flags.domains_only === true) && s.verifiedDomains === 0) return invalidFlags('auto_join and domains_only need a verified domain.');
  return accepted;
}

/** The flags a change asks for: defaults ← stored ← sent; nobody could sign in otherwise, so the owner keeps a way in. */
export function nextFlags(defaults: Flags, stored: Flags, sent: Flags): Record<string, boolean> {
  const flags = { ...defaults, ...stored, ...sent } as Record<string, boolean>;
  if (!flags.allow_email && !flags.allow_social && !flags.allow_sso) flags.allow_root = true;
  return flags;
}

/** The organization slug is its name in URLs and SSO identities: it never changes. */
export function decideSlug(stored: string, sent: string | undefined): Decision<OrganizationRejection> {
  return sent === undefined || sent === stored ? accepted : reject('organization_slug_immutable', `${INVALID} The organization slug cannot be changed.`);
}

const sameFlags = (a: Flags, b: Flags): boolean => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
};

export const organizationRules = rules({
  eventTypes: ['accounts.organization.updated'],
  rejections: ORGANIZATION_REJECTIONS,

  decide(e: OrganizationEvent, s: OrganizationAuthState): Decision<OrganizationRejection> {
    if (!s.organization) return reject('organization_not_found', 'Organization not found');
    const version = checkVersion('organization_changed', 'organization', e.expectedVersion, s.organization.version);
    if (version.status === 'rejected') return reject('organization_changed', 'The organization changed meanwhile; read it again and retry.', version.details);
    // Decided here too, not only by the command: a provider or a domain may have gone since it looked.
    const flags = parseFlags(e.payload.flags_json);
    return sameFlags(flags, s.organization.flags) ? accepted : decideFlags(s, flags);
  },
});

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** An organization's own events: its life, settings, roles, projects, SSO providers, invitations. */
export const organizationKey = (organizationId: string): string => `organization:${organizationId}`;
