// The one reader of the usage meters. Counters are summed from usage_daily (projector-usage, a
// projection of the spans and platform events topics: exact and rebuilt by a replay) over the
// quota's period; evaluation runs and the `users` gauge (the organization's distinct members now)
// are counted by their owners in @llm/account-model.
import type { Pool } from '@llm/postgres';
import { countHumanEvaluations, countOrganizationMembers, projectsOfWorkspace } from '@llm/account-model';
import { countEvaluationRuns } from '@llm/evaluation-model';
import type { DayRange } from './period.ts';

type Queryable = Pick<Pool, 'query'>;

/**
 * Counters metered from the logs: traces ingested (distinct new trace ids, the spans topic), events
 * ingested and traces retrieved (the platform events topic: every stored event; the distinct traces
 * of each read event, per user), evaluation runs (the accounts projection's human evaluations and projector-evaluations' runs). A plan's other counters
 * (`credits_consumed`, `records_ingested`) have no source in this system and are left out of usage.
 */
export const METERED_COUNTERS = ['traces_ingested', 'evaluations_run', 'traces_retrieved', 'events_ingested'] as const;

export interface MeterQuery {
  organizationId: string;
  meter: string;
  /** Days summed; undefined = the whole history. */
  range?: DayRange;
  /** Narrower quota scopes (reference §2.3): only this project's / workspace's usage. */
  projectId?: string;
  workspaceId?: string;
  /** A user-scoped quota: only this user's usage. */
  userId?: string;
}

export async function counterValue(q: Queryable, m: MeterQuery): Promise<number> {
  // Evaluation runs: the legacy human evaluations (accounts projection) and the runs of evaluations.v1.
  if (m.meter === 'evaluations_run') return (await countHumanEvaluations(q, m)) + (await countEvaluationRuns(q, m));
  const where = ['organization_id = $1', 'meter = $2'];
  const values: unknown[] = [m.organizationId, m.meter];
  if (m.range) { values.push(m.range.from, m.range.to); where.push(`day >= $${values.length - 1}::date AND day < $${values.length}::date`); }
  if (m.projectId) { values.push(m.projectId); where.push(`project_id = $${values.length}::uuid`); }
  if (m.workspaceId) { values.push(await projectsOfWorkspace(q, m.workspaceId)); where.push(`project_id = ANY($${values.length}::uuid[])`); }
  if (m.userId !== undefined) { values.push(m.userId); where.push(`user_id = $${values.length}`); }
  const r = await q.query<{ value: string | null }>(`SELECT sum(value)::text AS value FROM usage_daily WHERE ${where.join(' AND ')}`, values);
  return Number(r.rows[0]?.value ?? 0);
}

/** The organization's members: distinct users with a membership in it, its workspaces or projects. */
export const usersGauge = (q: Queryable, organizationId: string): Promise<number> => countOrganizationMembers(q, organizationId);
