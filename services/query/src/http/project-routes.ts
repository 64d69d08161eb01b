// GET /projects/current: the organization, workspace and project the caller acts in. The Agenta SDK
// resolves its scope with it (`ag.tracing.get_trace_url()`, evaluation run URLs) and reads
// organization_id, workspace_id and project_id; the other fields complete the reference's shape.
import { readCurrentProject } from '@llm/account-model';
import { notFound } from '@llm/errors';
import type { Handlers, Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function projectRoutes(deps: { pool: Pool }, guards: Guards<'member'>): Handlers {
  const { pool } = deps;
  return {
    'projects.current': [...guards.member, async (req, res) => {
      const p = await readCurrentProject(pool, req.scope.projectId, req.scope.userId);
      // The credential was admitted, so its project existed a moment ago: only a concurrent deletion lands here.
      if (!p) throw notFound('project_not_found', 'Project not found');
      const body: Record<string, unknown> = {
        organization_id: p.organization_id, organization_name: p.organization_name,
        workspace_id: p.workspace_id, workspace_name: p.workspace_name,
        project_id: p.project_id, project_name: p.project_name,
        is_default_project: p.is_default_project, is_demo: false,
      };
      if (p.user_role) body.user_role = p.user_role;
      res.json(body);
    }],
  };
}
