// Organization routes accept a browser session as well as an API key (reference §1.2, §1.3).
// An `Authorization` header means an API key, exactly as on every other route. Without one, the
// session cookie decides: the project comes from `project_id` / `workspace_id` (the user must be a
// member of it) or is the default project of the user's first organization; then the organization's
// auth policy must admit the session (403 with the denial body otherwise, as GET /auth/access).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, unauthenticated } from '@llm/errors';
import type { Pool } from '@llm/postgres';
import { evaluateAccess, type DeploymentMethods } from '@llm/auth-policy';
import type { Scope } from './authenticate.ts';
import type { SessionReader } from './session-gate.ts';
import { memberRole } from '@llm/accounts-read';
import { organizationPolicies, userIdentities, userEmail } from './policy-facts.ts';

export interface SessionScopeOptions {
  pool: Pool;
  apiKey: RequestHandler;
  readSession: SessionReader;
  deployment: DeploymentMethods;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NIL = '00000000-0000-0000-0000-000000000000';

interface ProjectRow { project_id: string; workspace_id: string; organization_id: string }

/** The project a session request acts in, or undefined when the user may not act there. */
async function resolveProject(pool: Pool, userId: string, projectId?: string, workspaceId?: string): Promise<ProjectRow | undefined> {
  // Membership at any level of the project's organization tree admits the user.
  const member = `EXISTS (SELECT 1 FROM memberships m WHERE m.user_id::text = $1 AND (
      (m.scope = 'project' AND m.scope_id = p.id) OR (m.scope = 'workspace' AND m.scope_id = p.workspace_id)
      OR (m.scope = 'organization' AND m.scope_id = p.organization_id)))`;
  const cols = 'p.id::text AS project_id, p.workspace_id::text AS workspace_id, p.organization_id::text AS organization_id';
  if (projectId !== undefined) {
    const r = await pool.query<ProjectRow>(`SELECT ${cols} FROM projects p WHERE p.id = $2::uuid AND ($3::uuid IS NULL OR p.workspace_id = $3::uuid) AND ${member}`, [userId, projectId, workspaceId ?? null]);
    return r.rows[0];
  }
  if (workspaceId !== undefined) {
    const r = await pool.query<ProjectRow>(`SELECT ${cols} FROM projects p WHERE p.workspace_id = $2::uuid AND ${member} ORDER BY p.is_default DESC, p.created_at LIMIT 1`, [userId, workspaceId]);
    return r.rows[0];
  }
  const r = await pool.query<ProjectRow>(
    `SELECT ${cols} FROM memberships o JOIN projects p ON p.organization_id = o.scope_id
      WHERE o.user_id::text = $1 AND o.scope = 'organization' AND ${member}
      ORDER BY o.created_at, p.is_default DESC, p.created_at LIMIT 1`,
    [userId],
  );
  return r.rows[0];
}

const param = (req: Request, name: string): string | undefined => {
  const v = req.query[name];
  return typeof v === 'string' ? v : undefined;
};

export function apiKeyOrSession(opts: SessionScopeOptions): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.header('authorization') !== undefined) { await opts.apiKey(req, res, next); return; }
    const session = await opts.readSession(req);
    const projectId = param(req, 'project_id');
    const workspaceId = param(req, 'workspace_id');
    for (const id of [projectId, workspaceId]) {
      if (id !== undefined && (!UUID.test(id) || id === NIL)) throw unauthenticated();
    }
    const project = await resolveProject(opts.pool, session.user_id, projectId, workspaceId);
    if (!project) throw unauthenticated();
    const [role, [org], identities, email] = await Promise.all([
      memberRole(opts.pool, project.organization_id, session.user_id), organizationPolicies(opts.pool, [project.organization_id]),
      userIdentities(opts.pool, session.user_id), session.email ?? userEmail(opts.pool, session.user_id),
    ]);
    if (org) {
      const decision = evaluateAccess({
        organization: { slug: org.slug, flags: org.flags }, isOwner: role === 'owner' || org.ownerId === session.user_id, email,
        sessionIdentities: session.identities, userIdentities: identities, activeProviders: org.activeProviders,
        verifiedDomains: org.verifiedDomains, deployment: opts.deployment,
      });
      if (!decision.ok) throw new AppError({ code: decision.denial.error, kind: 'forbidden', message: decision.denial.message, details: { detail: decision.denial } });
    }
    const scope: Scope = { projectId: project.project_id, workspaceId: project.workspace_id, organizationId: project.organization_id, userId: session.user_id, apiKeyId: '' };
    req.scope = scope;
    req.session = session;
    next();
  };
}
