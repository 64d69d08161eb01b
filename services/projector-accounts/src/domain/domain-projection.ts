// Pure projection of the organization-domain events (accounts.domain.*). All events of one domain
// name share a partition, so the facts read first (the row, who has it verified) are the same on
// every replay, and of two organizations verifying the same name the later one is rejected.
import type { DecodedEvent } from '@llm/events';
import type { Projection, SqlStatement } from './projection.ts';

export type DomainEvent =
  | DecodedEvent<'accounts.domain.token_issued'>
  | DecodedEvent<'accounts.domain.verified'>
  | DecodedEvent<'accounts.domain.deleted'>;

export interface DomainFactsNeeded { domainId: string; organizationId: string; domain: string }

export interface DomainFacts {
  /** The row with this id, when it belongs to the event's organization. */
  row?: { domain: string; token: string | null; isVerified: boolean };
  /** Another row of the same organization holds the name (a different id). */
  nameTakenInOrg: boolean;
  /** Organization that has this name verified, if any. */
  verifiedBy?: string;
}

export const domainFactsNeeded = (e: DomainEvent): DomainFactsNeeded =>
  ({ domainId: e.payload.domain_id, organizationId: e.payload.organization_id, domain: e.payload.domain });

export function projectDomainEvent(e: DomainEvent, f: DomainFacts): Projection {
  const at = new Date(e.timeUs / 1000).toISOString();
  switch (e.type) {
    case 'accounts.domain.token_issued': {
      const p = e.payload;
      if (f.verifiedBy !== undefined && f.verifiedBy !== p.organization_id) {
        return { status: 'rejected', reason: `Domain ${p.domain} is already verified by another organization.` };
      }
      if (f.nameTakenInOrg) return { status: 'rejected', reason: `Domain ${p.domain} is already claimed by this organization.` };
      const issued = new Date(p.issued_at_us / 1000).toISOString();
      const s: SqlStatement[] = [{
        text: `INSERT INTO organization_domains (id, organization_id, domain, name, description, token, is_verified, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, false, $7, $8)
               ON CONFLICT (id) DO UPDATE SET token = EXCLUDED.token, is_verified = false, created_at = EXCLUDED.created_at,
                 updated_at = EXCLUDED.updated_at,
                 name = COALESCE(EXCLUDED.name, organization_domains.name),
                 description = COALESCE(EXCLUDED.description, organization_domains.description)`,
        values: [p.domain_id, p.organization_id, p.domain, p.name || null, p.description || null, p.token, issued, at],
      }];
      return { status: 'applied', statements: s };
    }
    case 'accounts.domain.verified': {
      const p = e.payload;
      if (!f.row) return { status: 'rejected', reason: 'Domain not found' };
      if (f.verifiedBy !== undefined && f.verifiedBy !== p.organization_id) {
        return { status: 'rejected', reason: `Domain ${p.domain} is already verified by another organization.` };
      }
      // The token may have been refreshed after the command checked DNS: only the checked token counts.
      if (f.row.token !== p.token) return { status: 'rejected', reason: 'The domain token changed during verification; verify again.' };
      return {
        status: 'applied',
        statements: [{ text: 'UPDATE organization_domains SET is_verified = true, token = NULL, updated_at = $2 WHERE id = $1', values: [p.domain_id, at] }],
      };
    }
    case 'accounts.domain.deleted': {
      if (!f.row) return { status: 'rejected', reason: 'Domain not found' };
      return { status: 'applied', statements: [{ text: 'DELETE FROM organization_domains WHERE id = $1', values: [e.payload.domain_id] }] };
    }
    default: {
      const never: never = e;
      throw new Error(`unhandled domain event ${String(never)}`);
    }
  }
}
