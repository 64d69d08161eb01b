// Reads for the organization lifecycle (compat §3.1): the state its events are decided on, and the
// organizations a user belongs to (GET /organizations/).
import type { OrganizationLifecycleEvent, OrganizationLifecycleState } from './rules.ts';
import { asUuid, type Queryable } from '../../queryable.ts';
import { readOrganization, readOrganizationBySlug } from '../organization/reads.ts';
import { existingUsers } from '../user/reads.ts';

/** What a lifecycle event is decided on (one query after the other: `q` may be the projector's transaction client). */
export async function loadOrganizationLifecycleState(q: Queryable, e: OrganizationLifecycleEvent): Promise<OrganizationLifecycleState> {
  const [orgId, slug, users, actor] = ((): [string, string | undefined, string[], string | undefined] => {
    switch (e.type) {
      case 'accounts.organization.created': return [e.payload.organization.id, e.payload.organization.slug, [e.payload.owner_id], undefined];
      case 'accounts.organization.deleted': return [e.payload.organization_id, undefined, [e.payload.actor_id], e.payload.actor_id];
      case 'accounts.organization.transferred': return [e.payload.organization_id, undefined, [e.payload.from_user_id, e.payload.to_user_id], undefined];
    }
  })();
  const org = await readOrganization(q, orgId);
  const slugTaken = slug !== undefined && await readOrganizationBySlug(q, slug) !== undefined;
  const existing = await existingUsers(q, users);
  const actorId = actor === undefined ? null : asUuid(actor);
  const owned = actorId === null ? 0 : (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations WHERE owner_id = $1', [actorId])).rows[0]?.n ?? 0;
  const ids = users.map(asUuid).filter((x): x is string => x !== null);
  const members = !org || ids.length === 0 ? [] : (await q.query<{ user_id: string; role: string }>(
    `SELECT user_id::text AS user_id, role FROM memberships WHERE scope = 'organization' AND scope_id = $1 AND user_id = ANY($2::uuid[]) ORDER BY user_id`,
    [org.id, ids],
  )).rows;
  return {
    ...(org ? { organization: { id: org.id, ownerId: org.owner_id } } : {}),
    slugTaken, users: existing, ownedByActor: owned, members: members.map((m) => ({ userId: m.user_id, role: m.role })),
  };
}

export interface MemberOrganizationRow {
  id: string; name: string; slug: string; description: string | null; flags: Record<string, boolean>; owner_id: string;
  /** The user's workspaces in the organization. */
  workspaces: string[];
}

/** The organizations where the user holds a membership, oldest membership first, each with the user's workspaces there. */
export async function memberOrganizations(q: Queryable, userId: string): Promise<MemberOrganizationRow[]> {
  const id = asUuid(userId);
  if (id === null) return [];
  const r = await q.query<MemberOrganizationRow>(
    `SELECT o.id::text AS id, o.name, o.slug, o.description, o.flags, o.owner_id::text AS owner_id,
            ARRAY(SELECT w.id::text FROM workspaces w JOIN memberships wm ON wm.scope = 'workspace' AND wm.scope_id = w.id AND wm.user_id = $1
                   WHERE w.organization_id = o.id ORDER BY w.created_at, w.id) AS workspaces
       FROM memberships m JOIN organizations o ON o.id = m.scope_id
      WHERE m.scope = 'organization' AND m.user_id = $1
      ORDER BY m.created_at, o.id`,
    [id],
  );
  return r.rows;
}

/** The organization's default workspace (its oldest), if any. */
export async function defaultWorkspaceOf(q: Queryable, organizationId: string): Promise<string | undefined> {
  const id = asUuid(organizationId);
  if (id === null) return undefined;
  const r = await q.query<{ id: string }>('SELECT id::text AS id FROM workspaces WHERE organization_id = $1 ORDER BY created_at, id LIMIT 1', [id]);
  return r.rows[0]?.id;
}

/** Prefixes of the API keys in the organization's projects (their cached resolutions go with it). */
export async function apiKeyPrefixesOfOrganization(q: Queryable, organizationId: string): Promise<string[]> {
  const id = asUuid(organizationId);
  if (id === null) return [];
  const r = await q.query<{ prefix: string }>('SELECT DISTINCT k.prefix FROM api_keys k JOIN projects p ON p.id = k.project_id WHERE p.organization_id = $1 ORDER BY k.prefix', [id]);
  return r.rows.map((x) => x.prefix);
}
