// Reads for the operator's project, workspace and membership routes (compat §2.3): the state a
// project event is decided on, an organization's one workspace, and memberships by their ids.
import { NAMESPACE_DNS, uuidv5 } from '@llm/events';
import type { ProjectEvent, ProjectState } from './rules.ts';
import { asUuid, type Queryable } from '../../queryable.ts';
import { readOrganization } from '../organization/reads.ts';
import { readProject, readWorkspace } from './projects.ts';

/** The organization, workspace and project a project event names (one query after the other: `q` may be a transaction client). */
export async function loadProjectState(q: Queryable, e: ProjectEvent): Promise<ProjectState> {
  const org = await readOrganization(q, e.payload.organization_id);
  const workspace = e.type === 'accounts.project.created' ? await readWorkspace(q, e.payload.workspace_id) : undefined;
  const project = await readProject(q, e.type === 'accounts.project.created' ? e.payload.project.id : e.payload.project_id);
  return {
    ...(org ? { organization: { id: org.id } } : {}),
    ...(workspace ? { workspace: { id: workspace.id, organizationId: workspace.organization_id } } : {}),
    ...(project ? { project: { id: project.id, organizationId: project.organization_id, isDefault: project.is_default } } : {}),
  };
}

/** The organization's workspace (the first, by creation: organizations here have one). */
export async function organizationWorkspace(q: Queryable, organizationId: string): Promise<{ id: string; name: string; created_at: Date } | undefined> {
  const r = await q.query<{ id: string; name: string; created_at: Date }>(
    'SELECT id::text AS id, name, created_at FROM workspaces WHERE organization_id = $1 ORDER BY created_at, id LIMIT 1', [asUuid(organizationId)],
  );
  return r.rows[0];
}

/** The organization's default project. */
export async function defaultProjectOf(q: Queryable, organizationId: string): Promise<string | undefined> {
  const r = await q.query<{ id: string }>(
    'SELECT id::text AS id FROM projects WHERE organization_id = $1 ORDER BY is_default DESC, created_at, id LIMIT 1', [asUuid(organizationId)],
  );
  return r.rows[0]?.id;
}

export type MembershipScopeKind = 'organization' | 'workspace' | 'project';

const MEMBERSHIP_IDS = uuidv5('memberships.llm-backend', NAMESPACE_DNS);

/** A membership's id: derived from where and whose it is, so every replica and every replay names it alike. */
export const membershipId = (scope: MembershipScopeKind, scopeId: string, userId: string): string =>
  uuidv5(`${scope}:${scopeId.toLowerCase()}:${userId.toLowerCase()}`, MEMBERSHIP_IDS);

export interface MembershipRow { id: string; scope: MembershipScopeKind; scope_id: string; user_id: string; role: string }

/** The membership with this id held directly in this organization, workspace or project (undefined when there is none). */
export async function findMembership(q: Queryable, scope: MembershipScopeKind, scopeId: string, id: string): Promise<MembershipRow | undefined> {
  const r = await q.query<{ scope_id: string; user_id: string; role: string }>(
    'SELECT scope_id::text AS scope_id, user_id::text AS user_id, role FROM memberships WHERE scope = $1 AND scope_id = $2', [scope, asUuid(scopeId)],
  );
  const wanted = id.toLowerCase();
  const row = r.rows.find((m) => membershipId(scope, m.scope_id, m.user_id) === wanted);
  return row ? { id: wanted, scope, ...row } : undefined;
}

/** Prefixes of the user's API keys in the organization's projects (a role change must reach them at once). */
export async function apiKeyPrefixesOfMember(q: Queryable, organizationId: string, userId: string): Promise<string[]> {
  const r = await q.query<{ prefix: string }>(
    'SELECT k.prefix FROM api_keys k JOIN projects p ON p.id = k.project_id WHERE p.organization_id = $1 AND k.user_id = $2',
    [asUuid(organizationId), asUuid(userId)],
  );
  return r.rows.map((x) => x.prefix);
}
