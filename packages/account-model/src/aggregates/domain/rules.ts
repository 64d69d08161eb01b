// Organization domains (reference §4 and the interface's state table). Every event of one domain
// name shares a partition (key `domain:<name>`), so the claims on a name are decided in order: of
// two organizations verifying the same name, the later one is refused.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';

export type DomainEventType = 'accounts.domain.token_issued' | 'accounts.domain.verified' | 'accounts.domain.deleted';
export type DomainEvent = AccountEvent<DomainEventType>;

/** One organization's claim on a name. */
export interface DomainClaim { id: string; organizationId: string; domain: string; token: string | null; verified: boolean }

/** The claims an event's decision looks at: those on its name, and the one with its id. */
export interface DomainState { claims: DomainClaim[] }

export const DOMAIN_REJECTIONS = {
  domain_not_found: 'not_found',
  domain_verified: 'conflict',
  domain_claimed: 'conflict',
  domain_token_changed: 'conflict',
  domain_not_verified: 'conflict',
  domain_already_verified: 'invalid',
  domain_in_use: 'invalid',
} as const;
export type DomainRejection = keyof typeof DOMAIN_REJECTIONS;

const claimOf = (s: DomainState, id: string, organizationId: string): DomainClaim | undefined =>
  s.claims.find((c) => sameId(c.id, id) && sameId(c.organizationId, organizationId));
const verifiedBy = (s: DomainState, domain: string): DomainClaim | undefined => s.claims.find((c) => c.domain === domain && c.verified);
const verifiedElsewhere = (domain: string): Decision<DomainRejection> =>
  reject('domain_verified', `Domain ${domain} is already verified by another organization.`);

export const domainRules = rules({
  eventTypes: ['accounts.domain.token_issued', 'accounts.domain.verified', 'accounts.domain.deleted'],
  rejections: DOMAIN_REJECTIONS,

  decide(e: DomainEvent, s: DomainState): Decision<DomainRejection> {
    const p = e.payload;
    const owner = verifiedBy(s, p.domain);
    switch (e.type) {
      case 'accounts.domain.token_issued':
        if (owner && !sameId(owner.organizationId, p.organization_id)) return verifiedElsewhere(p.domain);
        if (s.claims.some((c) => sameId(c.organizationId, p.organization_id) && c.domain === p.domain && !sameId(c.id, p.domain_id))) {
          return reject('domain_claimed', `Domain ${p.domain} is already claimed by this organization.`);
        }
        return accepted;
      case 'accounts.domain.verified': {
        const claim = claimOf(s, p.domain_id, p.organization_id);
        if (!claim) return reject('domain_not_found', 'Domain not found');
        if (owner && !sameId(owner.organizationId, p.organization_id)) return verifiedElsewhere(p.domain);
        // The token may have been refreshed after the command checked DNS: only the checked token counts.
        if (claim.token !== e.payload.token) return reject('domain_token_changed', 'The domain token changed during verification; verify again.');
        return accepted;
      }
      case 'accounts.domain.deleted':
        return claimOf(s, p.domain_id, p.organization_id) ? accepted : reject('domain_not_found', 'Domain not found');
    }
  },
});

// Rules of the domain commands that come before any event (the interface's state table).

/** POST /organizations/domains: a name this organization already verified is not claimed again. */
export function decideClaim(s: DomainState, organizationId: string, name: string): Decision<DomainRejection> {
  const owner = verifiedBy(s, name);
  if (!owner) return accepted;
  return sameId(owner.organizationId, organizationId) ? reject('domain_verified', `Domain ${name} is already verified`) : verifiedElsewhere(name);
}

/** verify needs an unverified claim that still has its token. */
export function decideVerify(claim: Pick<DomainClaim, 'verified' | 'token'>): Decision<DomainRejection> {
  return claim.verified || claim.token === null ? reject('domain_already_verified', 'Domain already verified') : accepted;
}

/** refresh renews the token of an unverified domain; reset starts a verified one over. */
export function decideRenewal(how: 'refresh' | 'reset', claim: Pick<DomainClaim, 'verified'>): Decision<DomainRejection> {
  if (how === 'refresh' && claim.verified) return reject('domain_verified', 'Domain is verified; use reset to start its verification over.');
  if (how === 'reset' && !claim.verified) return reject('domain_not_verified', 'Domain is not verified; use refresh for a new token.');
  return accepted;
}

/** auto_join and domains_only rely on verified domains: they must be off before one changes or goes. */
export function decideChange(claim: Pick<DomainClaim, 'verified'>, flags: Record<string, unknown>): Decision<DomainRejection> {
  if (claim.verified && (flags.domains_only === true || flags.auto_join === true)) {
    return reject('domain_in_use', 'Disable domains-only and auto-join before modifying verified domains.');
  }
  return accepted;
}

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** A domain claim: the name as the organization wrote it. */
export const domainKey = (domain: string): string => `domain:${domain}`;
