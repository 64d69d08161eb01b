// The one reader of projects and workspaces (0001-accounts.sql): which projects exist (API keys are
// created in one), the rows account creation answers with, and the project a browser session acts in.
import type { Queryable } from '../../queryable.ts';
import { asUuid } from '../../queryable.ts';

export interface WorkspaceRow { id: string; name: string; slug: string; organization_id: string; created_at: Date }
export interface ProjectRow { id: string; name: string; slug: string; organization_id: string; workspace_id: string; is_default: boolean; created_at: Date }
/** Where a request acts: the project with its workspace and organization. */
export interface ProjectScope { project_id: string; workspace_id: string; organization_id: string }

/** The ids (as stored) of the projects among these that exist. */
export async function existingProjects(q: Queryable, ids: string[]): Promise<string[]> {
  const valid = ids.map(asUuid).filter((x): x is string => x !== null);
  if (valid.length === 0) return [];
  const r = await q.query<{ id: string }>('SELECT id::text AS id FROM projects WHERE id = ANY($1::uuid[]) ORDER BY id', [valid]);
  return r.rows.map((x) => x.id);
}

export async function readWorkspace(q: Queryable, id: string): Promise<WorkspaceRow | undefined> {
  const r = await q.query<WorkspaceRow>('SELECT id::text AS id, name, slug, organization_id::text AS organization_id, created_at FROM workspaces WHERE id = $1', [asUuid(id)]);
  return r.rows[0];
}

export async function readProject(q: Queryable, id: string): Promise<ProjectRow | undefined> {
  const r = await q.query<ProjectRow>(
    `SELECT id::text AS id, name, slug, organization_id::text AS organization_id, workspace_id::text AS workspace_id, is_default, created_at
       FROM projects WHERE id = $1`, [asUuid(id)]);
  return r.rows[0];
}

// Membership at any level of the project's organization tree admits the user.
const MEMBER = `EXISTS (SELECT 1 FROM memberships m WHERE m.user_id::text = $1 AND (
    (m.scope = 'project' AND m.scope_id = p.id) OR (m.scope = 'workspace' AND m.scope_id = p.workspace_id)
    OR (m.scope = 'organization' AND m.scope_id = p.organization_id)))`;
const SCOPE = 'p.id::text AS project_id, p.workspace_id::text AS workspace_id, p.organization_id::text AS organization_id';

/**
 * The project a session's user acts in: the one asked for (in the workspace, when one is named), the
 * workspace's default, or the default project of the user's first organization — each only when the
 * user is a member of it. Ids must be UUIDs (the caller checks).
 */
export async function memberProject(q: Queryable, userId: string, projectId?: string, workspaceId?: string): Promise<ProjectScope | undefined> {
  if (projectId !== undefined) {
    const r = await q.query<ProjectScope>(`SELECT ${SCOPE} FROM projects p WHERE p.id = $2::uuid AND ($3::uuid IS NULL OR p.workspace_id = $3::uuid) AND ${MEMBER}`, [userId, projectId, workspaceId ?? null]);
    return r.rows[0];
  }
  if (workspaceId !== undefined) {
    const r = await q.query<ProjectScope>(`SELECT ${SCOPE} FROM projects p WHERE p.workspace_id = $2::uuid AND ${MEMBER} ORDER BY p.is_default DESC, p.created_at LIMIT 1`, [userId, workspaceId]);
    return r.rows[0];
  }
  const r = await q.query<ProjectScope>(
    `SELECT ${SCOPE} FROM memberships o JOIN projects p ON p.organization_id = o.scope_id
      WHERE o.user_id::text = $1 AND o.scope = 'organization' AND ${MEMBER}
      ORDER BY o.created_at, p.is_default DESC, p.created_at LIMIT 1`,
    [userId],
  );
  return r.rows[0];
}

/** Ids of the projects of these organizations. */
export async function projectsOfOrganizations(q: Queryable, organizationIds: readonly string[]): Promise<string[]> {
  if (organizationIds.length === 0) return [];
  const r = await q.query<{ id: string }>('SELECT id::text AS id FROM projects WHERE organization_id::text = ANY($1::text[]) ORDER BY id', [organizationIds]);
  return r.rows.map((x) => x.id);
}

/** `GET /projects/current`: the caller's project with the names of its workspace and organization. */
export interface CurrentProjectRow {
  project_id: string; project_name: string; is_default_project: boolean;
  workspace_id: string; workspace_name: string; organization_id: string; organization_name: string;
  /** The caller's role, from the most specific membership (project, then workspace, then organization). */
  user_role: string | null;
}

export async function readCurrentProject(q: Queryable, projectId: string, userId: string): Promise<CurrentProjectRow | undefined> {
  const r = await q.query<CurrentProjectRow>(
    `SELECT p.id::text AS project_id, p.name AS project_name, p.is_default AS is_default_project,
            w.id::text AS workspace_id, w.name AS workspace_name, o.id::text AS organization_id, o.name AS organization_name,
            (SELECT m.role FROM memberships m WHERE m.user_id::text = $2 AND (
                (m.scope = 'project' AND m.scope_id = p.id) OR (m.scope = 'workspace' AND m.scope_id = p.workspace_id)
                OR (m.scope = 'organization' AND m.scope_id = p.organization_id))
              ORDER BY CASE m.scope WHEN 'project' THEN 0 WHEN 'workspace' THEN 1 ELSE 2 END LIMIT 1) AS user_role
       FROM projects p JOIN workspaces w ON w.id = p.workspace_id JOIN organizations o ON o.id = p.organization_id
      WHERE p.id = $1`,
    [asUuid(projectId), userId],
  );
  return r.rows[0];
}

/** The ids of a workspace's projects. */
export async function projectsOfWorkspace(q: Queryable, workspaceId: string): Promise<string[]> {
  const r = await q.query<{ id: string }>('SELECT id::text AS id FROM projects WHERE workspace_id = $1::uuid ORDER BY id', [asUuid(workspaceId)]);
  return r.rows.map((x) => x.id);
}

/** The organization a project belongs to. */
export async function organizationOfProject(q: Queryable, projectId: string): Promise<string | undefined> {
  const r = await q.query<{ id: string }>('SELECT organization_id::text AS id FROM projects WHERE id = $1::uuid', [asUuid(projectId)]);
  return r.rows[0]?.id;
}

