// organization_domains from the domain aggregate's facts (rules: rules.ts).
import { eventTime } from '../../account-event.ts';
import type { DomainEvent, DomainState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

export function projectDomain(e: DomainEvent, _s: DomainState): SqlStatement[] {
  const at = eventTime(e);
  switch (e.type) {
    case 'accounts.domain.token_issued': {
      const p = e.payload;
      return [{
        text: `INSERT INTO organization_domains (id, organization_id, domain, name, description, token, is_verified, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, false, $7, $8)
               ON CONFLICT (id) DO UPDATE SET token = EXCLUDED.token, is_verified = false, created_at = EXCLUDED.created_at,
                 updated_at = EXCLUDED.updated_at,
                 name = COALESCE(EXCLUDED.name, organization_domains.name),
                 description = COALESCE(EXCLUDED.description, organization_domains.description)`,
        values: [p.domain_id, p.organization_id, p.domain, p.name || null, p.description || null, p.token, eventTime({ timeUs: p.issued_at_us }), at],
      }];
    }
    case 'accounts.domain.verified':
      return [{ text: 'UPDATE organization_domains SET is_verified = true, token = NULL, updated_at = $2 WHERE id = $1', values: [e.payload.domain_id, at] }];
    case 'accounts.domain.deleted':
      return [{ text: 'DELETE FROM organization_domains WHERE id = $1', values: [e.payload.domain_id] }];
  }
}
