// PATCH /projects/{project_id} (issue 30): the project's own retention, shorter than its plan's or
// the plan's again (null). Recorded as accounts.project.retention_set, keyed by the organization like
// the project's own life, so a replay of the accounts topic restores it. A retention longer than the
// plan's is refused here (400 retention_above_plan) with the plan's bound; the readers take the
// shorter of the two in any case, so a plan downgraded later shortens it too.
import type { RequestHandler } from 'express';
import { planRetentionMinutes, type AccessCatalog, type PlanResolver, type RetainedData } from '@llm/access';
import { organizationKey, parseUuid, refuse } from '@llm/account-model';
import { readProjectRetention, type ProjectRetentionRow } from '@llm/accounts-read';
import { projectUpdate, type ProjectRetentionResponse } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { RequestValidationError, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { AccountCommands } from '../adapters/account-commands.ts';

export interface ProjectRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  plans: PlanResolver;
  access: Pick<AccessCatalog, 'plans'>;
  /** Called after a change applied (the readers of this process drop their cached retention). */
  retentionChanged?: (projectId: string) => void;
}

const DATA: readonly RetainedData[] = ['spans', 'events'];

export function projectRoutes(deps: ProjectRouteDeps, guards: Guards<'edit'>): Handlers {
  const read = async (projectId: string): Promise<ProjectRetentionRow> => {
    const row = await readProjectRetention(deps.pool, projectId);
    if (!row) throw refuse('project_not_found', 'Project not found');
    return row;
  };
  const view = async (row: ProjectRetentionRow): Promise<ProjectRetentionResponse> => {
    const { plan } = await deps.plans.planOf(row.organization_id);
    const own = row.retention_minutes > 0 ? row.retention_minutes : null;
    const planMinutes = (d: RetainedData): number | null => planRetentionMinutes(deps.access.plans, plan, d) ?? null;
    const effective = (d: RetainedData): number | null => {
      const p = planMinutes(d);
      return own === null ? p : p === null ? own : Math.min(p, own);
    };
    return {
      project_id: row.project_id, retention_minutes: own, plan,
      plan_retention_minutes: { spans: planMinutes('spans'), events: planMinutes('events') },
      effective_retention_minutes: { spans: effective('spans'), events: effective('events') },
    };
  };

  const update: RequestHandler = async (req, res) => {
    const id = parseUuid(String(req.params.project_id ?? ''));
    if (id === undefined) throw new RequestValidationError([{ loc: ['path', 'project_id'], msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
    const body = validate(projectUpdate, req.body);
    // A credential acts in one project: another one, existing or not, is not found.
    if (id !== req.scope.projectId.toLowerCase()) throw refuse('project_not_found', 'Project not found');
    const row = await read(id);
    const before = await view(row);
    const minutes = body.retention_minutes;
    const caps = DATA.map((d) => before.plan_retention_minutes[d]).filter((m): m is number => m !== null);
    const cap = caps.length > 0 ? Math.min(...caps) : undefined;
    if (minutes !== null && cap !== undefined && minutes > cap) {
      throw invalid('retention_above_plan',
        `retention_minutes ${minutes} is longer than the ${before.plan} plan's retention of ${cap} minutes; a project may keep its data for less, never longer.`,
        { max_retention_minutes: cap, plan: before.plan });
    }
    const organizationId = row.organization_id;
    await deps.commands.run(req, {
      type: 'accounts.project.retention_set', key: organizationKey(organizationId),
      payload: { organization_id: organizationId, project_id: id, retention_minutes: minutes ?? 0 }, meta: { organizationId, projectId: id },
    });
    deps.retentionChanged?.(id);
    res.status(200).json(await view(await read(id)));
  };

  return { 'projects.update': [...guards.edit, update] };
}
