// Operator routes for an organization's workspaces and projects (compat §2.3):
// POST/DELETE /admin/simple/accounts/workspaces/ and …/projects/. An organization here has exactly
// one workspace (as the reference's OSS edition): creating one answers the existing one, and it goes
// only with its organization. Projects are accounts.project.created / .deleted events keyed by the
// organization (rules: @llm/account-model project.ts); a deleted project's secrets are shredded first,
// its keys stop working at once, and its spans are purged from the span store afterwards.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { defaultProjectOf, organizationWorkspace, readProject, readWorkspace } from '@llm/accounts-read';
import { adminProjectCreate, adminWorkspaceCreate } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { validate, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { AccountCommands } from '../adapters/account-commands.ts';
import { accountRemovals } from '../adapters/account-removals.ts';
import { slugify } from '../domain/account-plan.ts';
import { organizationKey } from './organization-routes.ts';
import { adminBody, adminViews, emptyAccount, entityResolver, iso, lag, missing, pathId } from './admin-refs.ts';

export interface AdminStructureDeps {
  pool: Pool;
  commands: AccountCommands;
  /** Drops the cached resolution of a key prefix (a deleted project's keys stop working at once). */
  forgetKey?: (prefix: string) => void;
}

export function adminStructureRoutes(deps: AdminStructureDeps, admin: RequestHandler): Handlers {
  const { pool, commands } = deps;
  const resolve = entityResolver(pool);
  const removals = accountRemovals(deps);

  const views = adminViews(pool);
  const projectView = views.project;

  const meta = (req: Request, organizationId: string, projectId?: string) =>
    ({ requestId: req.id, organizationId, ...(projectId ? { projectId } : {}), aggregateId: organizationKey(organizationId) });

  return {
    'admin.workspaces.create': [admin, adminBody(async (req, res) => {
      const body = validate(adminWorkspaceCreate, req.body);
      const organizationId = await resolve('organization', body.workspace.organization_ref, 'workspace.organization_ref');
      const ws = await organizationWorkspace(pool, organizationId);
      const projectId = await defaultProjectOf(pool, organizationId);
      if (!ws || !projectId) throw lag();
      res.status(200).json({
        accounts: [{
          ...emptyAccount(),
          workspaces: { wrk: { id: ws.id, name: ws.name, organization_id: organizationId, created_at: iso(ws.created_at), updated_at: iso(ws.created_at) } },
          projects: { prj: await projectView(projectId) },
        }],
      });
    })],

    'admin.workspaces.delete': [admin, adminBody(async (req) => {
      const id = pathId(req, 'workspace_id');
      const ws = await readWorkspace(pool, id);
      if (!ws) throw missing('workspace', id);
      throw invalid('workspace_kept', `Workspace '${ws.id}' is its organization's only workspace: it goes only with the organization.`, { ref: ws.id });
    })],

    'admin.projects.create': [admin, adminBody(async (req, res) => {
      const body = validate(adminProjectCreate, req.body);
      const organizationId = await resolve('organization', body.project.organization_ref, 'project.organization_ref');
      const workspaceId = await resolve('workspace', body.project.workspace_ref, 'project.workspace_ref');
      const id = randomUUID();
      const name = body.project.name;
      await commands.commit({
        type: 'accounts.project.created', key: organizationKey(organizationId),
        payload: { organization_id: organizationId, workspace_id: workspaceId, project: { id, name, slug: `${slugify(name)}-${randomBytes(3).toString('hex')}` }, is_default: body.project.is_default === true },
        meta: meta(req, organizationId, id),
      });
      res.status(200).json({ accounts: [{ ...emptyAccount(), projects: { prj: await projectView(id) } }] });
    })],

    'admin.projects.delete': [admin, adminBody(async (req, res) => {
      const id = pathId(req, 'project_id');
      const p = await readProject(pool, id);
      if (!p) throw missing('project', id);
      await removals.project(req, p.organization_id, p.id);
      res.status(200).json({ dry_run: false, deleted: { projects: [{ id: p.id }] } });
    })],
  };
}
