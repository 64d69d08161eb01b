// organizations from the organization aggregate's facts (rules: rules.ts).
import { eventTime } from '../../account-event.ts';
import { parseFlags, type OrganizationAuthState, type OrganizationEvent } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

export function projectOrganization(e: OrganizationEvent, _s: OrganizationAuthState): SqlStatement[] {
  const p = e.payload;
  return [{
    text: 'UPDATE organizations SET name = $2, description = $3, flags = $4::jsonb, updated_at = $5, version = version + 1 WHERE id = $1',
    values: [p.organization_id, p.name, p.description || null, JSON.stringify(parseFlags(p.flags_json)), eventTime(e)],
  }];
}
