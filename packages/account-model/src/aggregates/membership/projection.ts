// memberships from the membership aggregate's facts (rules: rules.ts). A
// role is set at the organization level, or in one workspace or project; removal of the organization
// role takes the user out of its workspaces and projects too.
import { eventTime } from '../../account-event.ts';
import { membershipScopeOf, type MembershipEvent, type MembershipState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

export function projectMembership(e: MembershipEvent, _s: MembershipState): SqlStatement[] {
  const p = e.payload;
  const scope = membershipScopeOf(p);
  if (scope) {
    // A role in one workspace or project: that row alone.
    if (e.type === 'accounts.membership.set') {
      return [{
        text: `INSERT INTO memberships (scope, scope_id, user_id, role, created_at) VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (scope, scope_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
        values: [scope.kind, scope.id, p.user_id, e.payload.role, eventTime(e)],
      }];
    }
    return [{ text: 'DELETE FROM memberships WHERE scope = $1 AND scope_id = $2 AND user_id = $3', values: [scope.kind, scope.id, p.user_id] }];
  }
  if (e.type === 'accounts.membership.set') {
    return [{
      text: `INSERT INTO memberships (scope, scope_id, user_id, role, created_at) VALUES ('organization', $1, $2, $3, $4)
             ON CONFLICT (scope, scope_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
      values: [p.organization_id, p.user_id, e.payload.role, eventTime(e)],
    }];
  }
  return [{
    text: `DELETE FROM memberships WHERE user_id = $2 AND (
             (scope = 'organization' AND scope_id = $1)
             OR (scope = 'workspace' AND scope_id IN (SELECT id FROM workspaces WHERE organization_id = $1))
             OR (scope = 'project' AND scope_id IN (SELECT id FROM projects WHERE organization_id = $1)))`,
    values: [p.organization_id, p.user_id],
  }];
}
