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
import { isUuid, memberProject, memberRole, organizationPolicies, userEmail, userIdentities } from '@llm/account-model';

export interface SessionScopeOptions {
  pool: Pool;
  apiKey: RequestHandler;
  readSession: SessionReader;
  deployment: DeploymentMethods;
}

const NIL = '00000000-0000-0000-0000-000000000000';

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
      if (id !== undefined && (!isUuid(id) || id === NIL)) throw unauthenticated();
    }
    const project = await memberProject(opts.pool, session.user_id, projectId, workspaceId);
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
