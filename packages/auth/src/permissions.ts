// Roles and permissions (reference §1.4). A member's role in a project is the highest of their
// memberships in the project, its workspace and its organization; the organization's owner passes
// every check. Read from the accounts projection on every request (never cached): a removed or
// demoted member loses access at once.
import type { NextFunction, Request, Response } from 'express';
import { projectMemberships } from '@llm/account-model';
import { AppError, unavailable } from '@llm/errors';
import type { Pool } from '@llm/postgres';

export const ROLES = ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** Each permission with the lowest role that holds it. */
export const PERMISSIONS = {
  view_spans: 'viewer',
  edit_spans: 'annotator',
  view_secret: 'viewer',
  view_webhooks: 'viewer',
  view_billing: 'viewer',
  view_queries: 'viewer',
  edit_queries: 'editor',
  edit_secret: 'editor',
  edit_webhooks: 'editor',
  // Human evaluations (reference §12, EE) and the applications and testsets they read.
  view_evaluation: 'viewer',
  create_evaluation: 'editor',
  view_applications: 'viewer',
  // Evaluation runs with their scenarios, results and metrics (reference evaluations §1.7).
  view_evaluation_runs: 'viewer',
  edit_evaluation_runs: 'annotator',
  edit_applications: 'editor',
  // Versioned artifacts: testsets, evaluators and workflows (reference evaluations §1.7; applications above).
  view_testsets: 'viewer',
  edit_testsets: 'editor',
  view_evaluators: 'viewer',
  edit_evaluators: 'editor',
  view_workflows: 'viewer',
  edit_workflows: 'editor',
  view_annotations: 'viewer',
  view_environments: 'viewer',
  edit_environments: 'developer',
  deploy_environments: 'developer',
  edit_annotations: 'annotator',
  run_sessions: 'editor',
  use_mounts: 'editor',
  view_events: 'developer',
  // Ours: API keys act for their creator in a project, so handing them out is a developer's job.
  view_api_keys: 'developer',
  edit_api_keys: 'developer',
  // Ours: domains and SSO providers decide who may sign in to the whole organization (the
  // reference lets any member change them).
  edit_organization_auth: 'admin',
  // Ours: a project's retention decides when its spans, events and deliveries are deleted for good.
  edit_project: 'admin',
  edit_billing: 'owner',
} as const satisfies Record<string, Role>;
export type Permission = keyof typeof PERMISSIONS;

const rank = (role: string): number => ROLES.indexOf(role as Role);

export const isRole = (value: string): value is Role => rank(value) >= 0;

/** Whether `role` holds `permission`; unknown roles hold nothing. */
export function can(role: string | undefined, permission: Permission): boolean {
  return role !== undefined && isRole(role) && rank(role) >= rank(PERMISSIONS[permission]);
}

/** The highest of the given roles (undefined when none is a known role). */
export function highestRole(roles: readonly string[]): Role | undefined {
  let best: Role | undefined;
  for (const r of roles) if (isRole(r) && (best === undefined || rank(r) > rank(best))) best = r;
  return best;
}

export const FORBIDDEN_MESSAGE = 'You do not have access to perform this action. Please contact your organization admin.';

/** The caller's effective role in the request's project ('owner' for the organization's owner). */
export async function projectRole(pool: Pool, scope: { projectId: string; userId: string }): Promise<Role | undefined> {
  const rows = await projectMemberships(pool, scope.projectId, scope.userId)
    .catch((err: unknown) => { throw unavailable('accounts_unavailable', 'The account store is not available; retry shortly.', err); });
  if (rows.some((x) => x.isOwner)) return 'owner';
  return highestRole(rows.flatMap((x) => (x.role ? [x.role] : [])));
}

/** Middleware: 403 with the reference's message unless the caller's role holds `permission`. */
export function requirePermission(pool: Pool, permission: Permission) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    if (!can(await projectRole(pool, req.scope), permission)) throw new AppError({ code: 'forbidden', kind: 'forbidden', message: FORBIDDEN_MESSAGE });
    next();
  };
}
