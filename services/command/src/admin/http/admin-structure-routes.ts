// Operator routes for an organization's workspaces and projects (compat §2.3):
// POST/DELETE /admin/simple/accounts/workspaces/ and …/projects/. An organization here has exactly
// one workspace (as the reference's OSS edition): creating one answers the existing one, and it goes
// only with its organization. Projects are accounts.project.created / .deleted events keyed by the
// organization (rules: @llm/account-model project.ts); a deleted project's secrets are shredded first,
// its keys stop working at once, and its spans are purged from the span store afterwards.
import { defaultProjectOf, organizationWorkspace, readProject, readWorkspace, rejectionError, workspaceKept } from '@llm/account-model';
import { adminProjectCreate, adminWorkspaceCreate } from '@llm/contracts';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { projectionLag, type AccountCommands } from '../../accounts/adapters/account-commands.ts';
import { accountRemovals } from '../../accounts/adapters/account-removals.ts';
import { accountCreations } from '../../accounts/adapters/account-creations.ts';
import { adminBody, adminViews, emptyAccount, entityResolver, missing, pathId } from './admin-refs.ts';

export interface AdminStructureDeps {
  pool: Pool;
  commands: AccountCommands;
  /** Drops the cached resolution of a key prefix (a deleted project's keys stop working at once). */
  forgetKey?: (prefix: string) => void;
}

export function adminStructureRoutes(deps: AdminStructureDeps, guards: Guards<'admin'>): Handlers {
  const { pool } = deps;
  const resolve = entityResolver(pool);
  const removals = accountRemovals(deps);
  const creations = accountCreations(deps);
  const views = adminViews(pool);

  return {
    'admin.workspaces.create': [...guards.admin, adminBody(async (req, res) => {
      const body = validate(adminWorkspaceCreate, req.body);
      const organizationId = await resolve('organization', body.workspace.organization_ref, 'workspace.organization_ref');
      const ws = await organizationWorkspace(pool, organizationId);
      const projectId = await defaultProjectOf(pool, organizationId);
      if (!ws || !projectId) throw projectionLag();
      res.status(200).json({
        accounts: [{
          ...emptyAccount(),
          workspaces: { wrk: await views.workspace(ws.id) },
          projects: { prj: await views.project(projectId) },
        }],
      });
    })],

    'admin.workspaces.delete': [...guards.admin, adminBody(async (req) => {
      const id = pathId(req, 'workspace_id');
      const ws = await readWorkspace(pool, id);
      if (!ws) throw missing('workspace', id);
      throw rejectionError(workspaceKept(ws.id));
    })],

    'admin.projects.create': [...guards.admin, adminBody(async (req, res) => {
      const body = validate(adminProjectCreate, req.body);
      const organizationId = await resolve('organization', body.project.organization_ref, 'project.organization_ref');
      const workspaceId = await resolve('workspace', body.project.workspace_ref, 'project.workspace_ref');
      const id = await creations.project(req, { organizationId, workspaceId, name: body.project.name, isDefault: body.project.is_default === true });
      res.status(200).json({ accounts: [{ ...emptyAccount(), projects: { prj: await views.project(id) } }] });
    })],

    'admin.projects.delete': [...guards.admin, adminBody(async (req, res) => {
      const id = pathId(req, 'project_id');
      const p = await readProject(pool, id);
      if (!p) throw missing('project', id);
      await removals.project(req, p.organization_id, p.id);
      res.status(200).json({ dry_run: false, deleted: { projects: [{ id: p.id }] } });
    })],
  };
}
