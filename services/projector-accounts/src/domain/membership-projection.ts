// Pure projection of organization memberships (accounts.membership.*). A membership in the
// organization is what counts for its workspaces and projects too (the highest role wins), so
// removal takes the user out of all three levels.
import type { DecodedEvent } from '@llm/events';
import type { Projection } from './projection.ts';

export type MembershipEvent = DecodedEvent<'accounts.membership.set'> | DecodedEvent<'accounts.membership.removed'>;

export interface MembershipFactsNeeded { organizationId: string; userId: string }
export interface MembershipFacts { organizationExists: boolean; userExists: boolean; isOwner: boolean }

export const membershipFactsNeeded = (e: MembershipEvent): MembershipFactsNeeded => ({ organizationId: e.payload.organization_id, userId: e.payload.user_id });

const ROLES = new Set(['owner', 'admin', 'developer', 'editor', 'annotator', 'viewer']);

export function projectMembershipEvent(e: MembershipEvent, f: MembershipFacts): Projection {
  const at = new Date(e.timeUs / 1000).toISOString();
  const p = e.payload;
  if (!f.organizationExists) return { status: 'rejected', reason: 'Organization not found' };
  if (!f.userExists) return { status: 'rejected', reason: 'User not found' };
  if (f.isOwner) return { status: 'rejected', reason: "The organization's owner keeps the owner role" };
  if (e.type === 'accounts.membership.set') {
    const role = e.payload.role;
    if (!ROLES.has(role)) return { status: 'rejected', reason: `Unknown role '${role}'` };
    return {
      status: 'applied',
      statements: [{
        text: `INSERT INTO memberships (scope, scope_id, user_id, role, created_at) VALUES ('organization', $1, $2, $3, $4)
               ON CONFLICT (scope, scope_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
        values: [p.organization_id, p.user_id, role, at],
      }],
    };
  }
  return {
    status: 'applied',
    statements: [{
      text: `DELETE FROM memberships WHERE user_id = $2 AND (
               (scope = 'organization' AND scope_id = $1)
               OR (scope = 'workspace' AND scope_id IN (SELECT id FROM workspaces WHERE organization_id = $1))
               OR (scope = 'project' AND scope_id IN (SELECT id FROM projects WHERE organization_id = $1)))`,
      values: [p.organization_id, p.user_id],
    }],
  };
}
