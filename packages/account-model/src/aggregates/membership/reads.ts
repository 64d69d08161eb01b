// The one reader of memberships (0001-accounts.sql): the membership aggregate's state, whether and
// how a user belongs to an organization or a project, and a user's organizations.
import { membershipScopeOf, type MembershipEvent, type MembershipState } from './rules.ts';
import { asUuid, type Queryable } from '../../queryable.ts';
import { readOrganization } from '../organization/reads.ts';
import { existingUsers } from '../user/reads.ts';

/** What a membership event is decided on: its organization (with its owner), its user, and the user's role there. */
export async function loadMembershipState(q: Queryable, e: MembershipEvent): Promise<MembershipState> {
  const state = await loadMemberships(q, [e.payload.organization_id], [e.payload.user_id]);
  const scope = membershipScopeOf(e.payload);
  const id = scope ? asUuid(scope.id) : null;
  if (!scope || id === null) return state;
  const table = scope.kind === 'workspace' ? 'workspaces' : 'projects';
  const r = await q.query<{ organization_id: string }>(`SELECT organization_id::text AS organization_id FROM ${table} WHERE id = $1`, [id]);
  return { ...state, targets: r.rows.map((row) => ({ kind: scope.kind, id, organizationId: row.organization_id })) };
}

/** These organizations (that exist) and users (that exist), and the organization memberships among them. */
export async function loadMemberships(q: Queryable, organizationIds: string[], userIds: string[]): Promise<MembershipState> {
  const orgs = organizationIds.map(asUuid).filter((x): x is string => x !== null);
  const users = userIds.map(asUuid).filter((x): x is string => x !== null);
  // One query after the other: `q` may be the projector's transaction client, which runs one at a time.
  const organizations = [];
  for (const id of new Set(orgs)) organizations.push(await readOrganization(q, id));
  const existing = await existingUsers(q, users);
  const members = orgs.length === 0 || users.length === 0 ? [] : (await q.query<{ organization_id: string; user_id: string; role: string }>(
    `SELECT scope_id::text AS organization_id, user_id::text AS user_id, role FROM memberships
      WHERE scope = 'organization' AND scope_id = ANY($1::uuid[]) AND user_id = ANY($2::uuid[]) ORDER BY created_at, user_id`,
    [orgs, users],
  )).rows;
  return {
    organizations: organizations.flatMap((o) => (o ? [{ id: o.id, ownerId: o.owner_id }] : [])),
    users: existing.map((id) => ({ id })),
    members: members.map((m) => ({ organizationId: m.organization_id, userId: m.user_id, role: m.role })),
  };
}

/** Whether the user is a member (any role) of the organization. */
export async function isOrganizationMember(q: Queryable, organizationId: string, userId: string): Promise<boolean> {
  const r = await q.query(`SELECT 1 FROM memberships WHERE scope = 'organization' AND scope_id::text = $1 AND user_id::text = $2`, [organizationId, userId]);
  return r.rows.length > 0;
}

/**
 * The user's memberships that reach the project (in it, its workspace or its organization), and
 * whether the user owns its organization: one row per membership, or one row without a role.
 */
export async function projectMemberships(q: Queryable, projectId: string, userId: string): Promise<Array<{ role: string | null; isOwner: boolean }>> {
  const r = await q.query<{ role: string | null; is_owner: boolean }>(
    `SELECT m.role, o.owner_id::text = $2 AS is_owner
       FROM projects p JOIN organizations o ON o.id = p.organization_id
       LEFT JOIN memberships m ON m.user_id::text = $2 AND (
         (m.scope = 'project' AND m.scope_id = p.id) OR (m.scope = 'workspace' AND m.scope_id = p.workspace_id)
         OR (m.scope = 'organization' AND m.scope_id = p.organization_id))
      WHERE p.id::text = $1`,
    [projectId, userId],
  );
  return r.rows.map((x) => ({ role: x.role, isOwner: x.is_owner }));
}

/** The organizations of the user with this e-mail (any role), and whether the user exists. */
export async function userOrganizations(q: Queryable, email: string): Promise<{ exists: boolean; organizationIds: string[] }> {
  const r = await q.query<{ id: string; orgs: string[] | null }>(
    `SELECT u.id::text AS id,
            (SELECT array_agg(m.scope_id::text) FROM memberships m WHERE m.user_id = u.id AND m.scope = 'organization') AS orgs
       FROM users u WHERE lower(u.email) = lower($1)`,
    [email],
  );
  const row = r.rows[0];
  return { exists: row !== undefined, organizationIds: row?.orgs ?? [] };
}

/** The member's role in the organization (undefined: not a member). */
export async function memberRole(q: Queryable, organizationId: string, userId: string): Promise<string | undefined> {
  const r = await q.query<{ role: string }>(
    `SELECT role FROM memberships WHERE scope = 'organization' AND scope_id::text = $1 AND user_id::text = $2`, [organizationId, userId],
  );
  return r.rows[0]?.role;
}

/** The organization's members: distinct users with a membership in it, its workspaces or projects (the quota gauge `users`). */
export async function countOrganizationMembers(q: Queryable, organizationId: string): Promise<number> {
  const r = await q.query<{ n: number }>(
    `SELECT count(DISTINCT user_id)::int AS n FROM memberships
      WHERE (scope = 'organization' AND scope_id = $1::uuid)
         OR (scope = 'workspace' AND scope_id IN (SELECT id FROM workspaces WHERE organization_id = $1::uuid))
         OR (scope = 'project' AND scope_id IN (SELECT id FROM projects WHERE organization_id = $1::uuid))`, [organizationId]);
  return r.rows[0]?.n ?? 0;
}

