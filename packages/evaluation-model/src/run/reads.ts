// The one reader of the evaluation_* tables (written by projector-evaluations only): the state a run
// event is decided on, the verdict a command waits for, and the rows the routes answer with. Every
// read is scoped to the caller's project: another project's run, scenario, cell or metric is unknown.
import { asUuid, type Queryable } from '@llm/account-model';
import type { EvaluationEvent } from '../evaluation-event.ts';
import { runIdOf, scenarioIdsOf, type RunState } from './rules.ts';
import { Where, project, uuids, type Windowing } from '../sql-where.ts';
import { loadQueueState } from '../queue/reads.ts';
import { QUEUE_EVENT_TYPES } from '../queue/rules.ts';

/** What a run event is decided on: the run as stored and which of the scenarios it names exist. */
export async function loadRunState(q: Queryable, e: EvaluationEvent): Promise<RunState> {
  const runId = asUuid(runIdOf(e));
  const run = (await q.query<{ id: string; project_id: string; is_closed: boolean }>(
    `SELECT id::text AS id, project_id::text AS project_id, coalesce((flags->>'is_closed')::boolean, false) AS is_closed FROM evaluation_runs WHERE id = $1::uuid`,
    [runId],
  )).rows[0];
  if (QUEUE_EVENT_TYPES.has(e.type)) {
    return { run: run && { id: run.id, projectId: run.project_id, isClosed: run.is_closed }, scenariosInRun: [], scenariosTaken: [], queues: await loadQueueState(q, e, runId) };
  }
  const ids = scenarioIdsOf(e).map(asUuid).filter((x): x is string => x !== null);
  if (ids.length === 0) return { run: run && { id: run.id, projectId: run.project_id, isClosed: run.is_closed }, scenariosInRun: [], scenariosTaken: [] };
  const found = (await q.query<{ id: string; run_id: string }>(
    'SELECT id::text AS id, run_id::text AS run_id FROM evaluation_scenarios WHERE id = ANY($1::uuid[])', [ids],
  )).rows;
  // Ids compare as stored (lower case); the rules compare the event's spelling, so answer in it.
  const spelled = new Map(scenarioIdsOf(e).map((id) => [id.toLowerCase(), id]));
  const back = (id: string): string => spelled.get(id) ?? id;
  return {
    run: run && { id: run.id, projectId: run.project_id, isClosed: run.is_closed },
    scenariosInRun: found.filter((s) => runId !== null && s.run_id === runId.toLowerCase()).map((s) => back(s.id)),
    scenariosTaken: e.type === 'evaluations.scenarios.added' ? found.map((s) => back(s.id)) : [],
  };
}

export type EvaluationOutcome = { status: 'applied' } | { status: 'rejected'; code: string; message: string; details?: Record<string, unknown> };

/** The verdict projector-evaluations recorded for an event, once it has applied it. */
export async function readEvaluationOutcome(q: Queryable, eventId: string): Promise<EvaluationOutcome | undefined> {
  const row = (await q.query<{ status: 'applied' | 'rejected'; rejection: string | null; rejection_code: string | null; rejection_details: Record<string, unknown> | null }>(
    'SELECT status, rejection, rejection_code, rejection_details FROM evaluation_events WHERE event_id = $1::uuid', [asUuid(eventId)],
  )).rows[0];
  if (!row) return undefined;
  if (row.status === 'applied') return { status: 'applied' };
  return { status: 'rejected', code: row.rejection_code ?? 'evaluation_event_malformed', message: row.rejection ?? 'rejected', ...(row.rejection_details ? { details: row.rejection_details } : {}) };
}

interface Lifecycle { created_at: Date; created_by_id: string | null; updated_at: Date | null; updated_by_id: string | null }
type Json = Record<string, unknown>;
export interface RunRow extends Lifecycle {
  id: string; project_id: string; name: string | null; description: string | null; status: string; flags: Json; tags: Json | null; meta: Json | null;
  data: Json | null; results_seq: string;
}
export interface ScenarioRow extends Lifecycle {
  id: string; run_id: string; status: string; timestamp: Date | null; interval: string | null; flags: Json | null; tags: Json | null; meta: Json | null;
}
export interface ResultRow extends Lifecycle {
  id: string; run_id: string; scenario_id: string; step_key: string; repeat_idx: number; status: string; trace_id: string | null; hash_id: string | null;
  testcase_id: string | null; error: Json | null; timestamp: Date | null; interval: string | null; flags: Json | null; tags: Json | null; meta: Json | null;
}
export interface MetricRow extends Lifecycle {
  id: string; run_id: string; scenario_id: string | null; timestamp: Date | null; interval: string | null; status: string; data: Json | null;
  flags: Json | null; tags: Json | null; meta: Json | null; results_seq: string | null;
}

const LIFECYCLE = 'created_at, created_by_id, updated_at, updated_by_id';
const RUN_COLUMNS = `id::text AS id, project_id::text AS project_id, name, description, status, flags, tags, meta, data, results_seq::text AS results_seq, ${LIFECYCLE}`;
const SCENARIO_COLUMNS = `id::text AS id, run_id::text AS run_id, status, "timestamp", "interval"::text AS "interval", flags, tags, meta, ${LIFECYCLE}`;
const RESULT_COLUMNS = `id::text AS id, run_id::text AS run_id, scenario_id::text AS scenario_id, step_key, repeat_idx, status, trace_id::text AS trace_id,
  hash_id::text AS hash_id, testcase_id::text AS testcase_id, error, "timestamp", "interval"::text AS "interval", flags, tags, meta, ${LIFECYCLE}`;
const METRIC_COLUMNS = `id::text AS id, run_id::text AS run_id, scenario_id::text AS scenario_id, "timestamp", "interval"::text AS "interval", status, data,
  flags, tags, meta, results_seq::text AS results_seq, ${LIFECYCLE}`;

export type { Windowing } from '../sql-where.ts';


export async function readRun(q: Queryable, projectId: string, runId: string): Promise<RunRow | undefined> {
  return (await q.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM evaluation_runs WHERE project_id = $1::uuid AND id = $2::uuid`, [asUuid(projectId), asUuid(runId)])).rows[0];
}

export async function readRuns(q: Queryable, projectId: string, ids: readonly string[]): Promise<RunRow[]> {
  return (await q.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM evaluation_runs WHERE project_id = $1::uuid AND id = ANY($2::uuid[]) ORDER BY id`, [asUuid(projectId), uuids(ids)])).rows;
}

export interface RunFilter {
  ids?: string[] | undefined; name?: string | undefined; description?: string | undefined; flags?: Json | undefined; tags?: Json | undefined;
  status?: string | undefined; statuses?: string[] | undefined; references?: Array<Record<string, Json>> | undefined;
}

export async function queryRuns(q: Queryable, projectId: string, f: RunFilter, w: Windowing | undefined): Promise<RunRow[]> {
  const where = project(projectId);
  if (f.ids) where.add((p) => `id = ANY(${p}::uuid[])`, uuids(f.ids));
  if (f.name !== undefined) where.add((p) => `name ILIKE '%' || ${p} || '%'`, likeText(f.name));
  if (f.description !== undefined) where.add((p) => `description ILIKE '%' || ${p} || '%'`, likeText(f.description));
  where.contains('flags', f.flags);
  where.contains('tags', f.tags);
  where.oneOrMany('status', 'text', f.status, f.statuses);
  // A reference matches when one step's references contain it (e.g. {"testset_revision": {"id": …}}).
  for (const ref of f.references ?? []) {
    where.add((p) => `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(data->'steps') = 'array' THEN data->'steps' ELSE '[]'::jsonb END) st
                               WHERE st->'references' @> ${p}::jsonb)`, JSON.stringify(ref));
  }
  const tail = where.window(w, 'descending');
  return (await q.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM evaluation_runs${where.sql()}${tail}`, where.values)).rows;
}

const likeText = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function readScenarios(q: Queryable, projectId: string, ids: readonly string[]): Promise<ScenarioRow[]> {
  return (await q.query<ScenarioRow>(
    `SELECT ${SCENARIO_COLUMNS} FROM evaluation_scenarios WHERE project_id = $1::uuid AND id = ANY($2::uuid[]) ORDER BY id`, [asUuid(projectId), uuids(ids)],
  )).rows;
}

export interface ScenarioFilter {
  ids?: string[] | undefined; run_id?: string | undefined; run_ids?: string[] | undefined; status?: string | undefined; statuses?: string[] | undefined;
  interval?: number | undefined; intervals?: number[] | undefined; timestamp?: string | undefined; timestamps?: string[] | undefined;
  flags?: Json | undefined; tags?: Json | undefined;
}

export async function queryScenarios(q: Queryable, projectId: string, f: ScenarioFilter, w: Windowing | undefined): Promise<ScenarioRow[]> {
  const where = project(projectId);
  if (f.ids) where.add((p) => `id = ANY(${p}::uuid[])`, uuids(f.ids));
  if (f.run_id !== undefined || f.run_ids !== undefined) where.add((p) => `run_id = ANY(${p}::uuid[])`, uuids([...(f.run_id ? [f.run_id] : []), ...(f.run_ids ?? [])]));
  where.oneOrMany('status', 'text', f.status, f.statuses);
  where.oneOrMany('"interval"', 'bigint', f.interval, f.intervals);
  where.oneOrMany('"timestamp"', 'timestamptz', f.timestamp, f.timestamps);
  where.contains('flags', f.flags);
  where.contains('tags', f.tags);
  const tail = where.window(w, 'ascending');
  return (await q.query<ScenarioRow>(`SELECT ${SCENARIO_COLUMNS} FROM evaluation_scenarios${where.sql()}${tail}`, where.values)).rows;
}

export async function readResults(q: Queryable, projectId: string, ids: readonly string[]): Promise<ResultRow[]> {
  return (await q.query<ResultRow>(
    `SELECT ${RESULT_COLUMNS} FROM evaluation_results WHERE project_id = $1::uuid AND id = ANY($2::uuid[]) ORDER BY id`, [asUuid(projectId), uuids(ids)],
  )).rows;
}

/** The cells of a run at the keys given (scenario, step, repeat), as stored now. */
export async function readCells(q: Queryable, runId: string, keys: ReadonlyArray<{ scenario_id: string; step_key: string; repeat_idx: number }>): Promise<ResultRow[]> {
  if (keys.length === 0) return [];
  return (await q.query<ResultRow>(
    `SELECT ${RESULT_COLUMNS} FROM evaluation_results r
      WHERE run_id = $1::uuid AND (scenario_id, step_key, repeat_idx) IN (SELECT * FROM unnest($2::uuid[], $3::text[], $4::int[]))`,
    [asUuid(runId), keys.map((k) => asUuid(k.scenario_id)), keys.map((k) => k.step_key), keys.map((k) => k.repeat_idx)],
  )).rows;
}

/** The trace ids (32 hex) of a run's cells, by step (the cells of one scenario when given): what a metrics refresh reads. */
export async function readCellTraces(q: Queryable, runId: string, scenarioId: string | undefined, timestamp?: string): Promise<Array<{ step_key: string; trace_id: string }>> {
  return (await q.query<{ step_key: string; trace_id: string }>(
    `SELECT step_key, replace(trace_id::text, '-', '') AS trace_id FROM evaluation_results r
      WHERE run_id = $1::uuid AND trace_id IS NOT NULL AND ($2::uuid IS NULL OR scenario_id = $2::uuid)
        AND ($3::timestamptz IS NULL OR EXISTS (SELECT 1 FROM evaluation_scenarios s WHERE s.id = r.scenario_id AND s."timestamp" = $3::timestamptz))`,
    [asUuid(runId), scenarioId === undefined ? null : asUuid(scenarioId), timestamp ?? null],
  )).rows;
}

/** Open, active, running live runs of every project: what the live-run cron refreshes (§4.2). */
export async function readLiveRuns(q: Queryable, limit = 1000): Promise<RunRow[]> {
  return (await q.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM evaluation_runs
      WHERE coalesce((flags->>'is_live')::boolean, false) AND coalesce((flags->>'is_active')::boolean, false)
        AND NOT coalesce((flags->>'is_closed')::boolean, false) AND status = 'running'
      ORDER BY id LIMIT $1`,
    [limit],
  )).rows;
}

/** The trace ids (32 hex) already named by the run's input cells: a live tick does not add a trace twice. */
export async function readInputTraceIds(q: Queryable, runId: string, stepKeys: readonly string[]): Promise<Set<string>> {
  const rows = (await q.query<{ trace_id: string }>(
    `SELECT DISTINCT replace(trace_id::text, '-', '') AS trace_id FROM evaluation_results WHERE run_id = $1::uuid AND step_key = ANY($2::text[]) AND trace_id IS NOT NULL`,
    [asUuid(runId), [...stepKeys]],
  )).rows;
  return new Set(rows.map((r) => r.trace_id));
}

export interface ResultFilter {
  ids?: string[] | undefined; run_id?: string | undefined; run_ids?: string[] | undefined; scenario_id?: string | undefined; scenario_ids?: string[] | undefined;
  step_key?: string | undefined; step_keys?: string[] | undefined; repeat_idx?: number | undefined; repeat_idxs?: number[] | undefined;
  status?: string | undefined; statuses?: string[] | undefined; interval?: number | undefined; intervals?: number[] | undefined;
  timestamp?: string | undefined; timestamps?: string[] | undefined; flags?: Json | undefined; tags?: Json | undefined;
}

export async function queryResults(q: Queryable, projectId: string, f: ResultFilter, w: Windowing | undefined): Promise<ResultRow[]> {
  const where = project(projectId);
  if (f.ids) where.add((p) => `id = ANY(${p}::uuid[])`, uuids(f.ids));
  if (f.run_id !== undefined || f.run_ids !== undefined) where.add((p) => `run_id = ANY(${p}::uuid[])`, uuids([...(f.run_id ? [f.run_id] : []), ...(f.run_ids ?? [])]));
  if (f.scenario_id !== undefined || f.scenario_ids !== undefined) {
    where.add((p) => `scenario_id = ANY(${p}::uuid[])`, uuids([...(f.scenario_id ? [f.scenario_id] : []), ...(f.scenario_ids ?? [])]));
  }
  where.oneOrMany('step_key', 'text', f.step_key, f.step_keys);
  where.oneOrMany('repeat_idx', 'int', f.repeat_idx, f.repeat_idxs);
  where.oneOrMany('status', 'text', f.status, f.statuses);
  where.oneOrMany('"interval"', 'bigint', f.interval, f.intervals);
  where.oneOrMany('"timestamp"', 'timestamptz', f.timestamp, f.timestamps);
  where.contains('flags', f.flags);
  where.contains('tags', f.tags);
  const tail = where.window(w, 'ascending');
  return (await q.query<ResultRow>(`SELECT ${RESULT_COLUMNS} FROM evaluation_results${where.sql()}${tail}`, where.values)).rows;
}

export async function readMetrics(q: Queryable, projectId: string, ids: readonly string[]): Promise<MetricRow[]> {
  return (await q.query<MetricRow>(
    `SELECT ${METRIC_COLUMNS} FROM evaluation_metrics WHERE project_id = $1::uuid AND id = ANY($2::uuid[]) ORDER BY id`, [asUuid(projectId), uuids(ids)],
  )).rows;
}

/** The metric rows of a run at the keys given ('' = no scenario / no timestamp), as stored now. */
export async function readMetricKeys(q: Queryable, runId: string, keys: ReadonlyArray<{ scenario_id: string; timestamp: string }>): Promise<MetricRow[]> {
  if (keys.length === 0) return [];
  return (await q.query<MetricRow>(
    `SELECT ${METRIC_COLUMNS} FROM evaluation_metrics
      WHERE run_id = $1::uuid AND (coalesce(scenario_id, '00000000-0000-0000-0000-000000000000'::uuid), coalesce("timestamp", 'epoch'::timestamptz)) IN (
        SELECT coalesce(nullif(s, '')::uuid, '00000000-0000-0000-0000-000000000000'::uuid), coalesce(nullif(t, '')::timestamptz, 'epoch'::timestamptz)
          FROM unnest($2::text[], $3::text[]) AS k(s, t))`,
    [asUuid(runId), keys.map((k) => k.scenario_id), keys.map((k) => k.timestamp)],
  )).rows;
}

export interface MetricFilter {
  ids?: string[] | undefined; run_id?: string | undefined; run_ids?: string[] | undefined; scenario_id?: string | undefined;
  /** A list, or true (rows with a scenario) / false (rows without). */
  scenario_ids?: string[] | boolean | undefined;
  timestamp?: string | undefined; timestamps?: string[] | boolean | undefined; interval?: number | undefined; intervals?: number[] | undefined;
  status?: string | undefined; statuses?: string[] | undefined; flags?: Json | undefined; tags?: Json | undefined;
}

export async function queryMetrics(q: Queryable, projectId: string, f: MetricFilter, w: Windowing | undefined): Promise<MetricRow[]> {
  const where = project(projectId);
  if (f.ids) where.add((p) => `id = ANY(${p}::uuid[])`, uuids(f.ids));
  if (f.run_id !== undefined || f.run_ids !== undefined) where.add((p) => `run_id = ANY(${p}::uuid[])`, uuids([...(f.run_id ? [f.run_id] : []), ...(f.run_ids ?? [])]));
  if (typeof f.scenario_ids === 'boolean') where.parts.push(f.scenario_ids ? 'scenario_id IS NOT NULL' : 'scenario_id IS NULL');
  else if (f.scenario_id !== undefined || f.scenario_ids !== undefined) {
    where.add((p) => `scenario_id = ANY(${p}::uuid[])`, uuids([...(f.scenario_id ? [f.scenario_id] : []), ...(f.scenario_ids ?? [])]));
  }
  if (typeof f.timestamps === 'boolean') where.parts.push(f.timestamps ? '"timestamp" IS NOT NULL' : '"timestamp" IS NULL');
  else where.oneOrMany('"timestamp"', 'timestamptz', f.timestamp, f.timestamps);
  where.oneOrMany('"interval"', 'bigint', f.interval, f.intervals);
  where.oneOrMany('status', 'text', f.status, f.statuses);
  where.contains('flags', f.flags);
  where.contains('tags', f.tags);
  const tail = where.window(w, 'descending');
  return (await q.query<MetricRow>(`SELECT ${METRIC_COLUMNS} FROM evaluation_metrics${where.sql()}${tail}`, where.values)).rows;
}

/** Which runs to count: an organization's, narrowed to a project, a workspace or a user, created in `[from, to)` days. */
export interface RunCount {
  organizationId: string;
  range?: { from: string; to: string } | undefined;
  projectId?: string | undefined;
  workspaceId?: string | undefined;
  userId?: string | undefined;
}

/** The organization's evaluation runs (with the legacy human evaluations: the quota meter `evaluations_run`). */
export async function countEvaluationRuns(q: Queryable, m: RunCount): Promise<number> {
  const where = ['p.organization_id = $1::uuid'];
  const values: unknown[] = [m.organizationId];
  if (m.range) { values.push(m.range.from, m.range.to); where.push(`r.created_at >= $${values.length - 1}::date AND r.created_at < $${values.length}::date`); }
  if (m.projectId) { values.push(m.projectId); where.push(`r.project_id = $${values.length}::uuid`); }
  if (m.workspaceId) { values.push(m.workspaceId); where.push(`p.workspace_id = $${values.length}::uuid`); }
  if (m.userId !== undefined) { values.push(m.userId); where.push(`r.created_by_id = $${values.length}`); }
  const r = await q.query<{ n: string }>(`SELECT count(*)::text AS n FROM evaluation_runs r JOIN projects p ON p.id = r.project_id WHERE ${where.join(' AND ')}`, values);
  return Number(r.rows[0]?.n ?? 0);
}

/** A slice of a run's cells (§2.4 probe, prune, refresh): each list omitted = all, `[]` = none. */
export interface RunSlice {
  scenario_ids?: string[] | null | undefined; step_keys?: string[] | null | undefined; repeat_idxs?: number[] | null | undefined;
}

/** The cells of a run's slice, in creation order. */
export async function readSlice(q: Queryable, projectId: string, runId: string, s: RunSlice): Promise<ResultRow[]> {
  if ([s.scenario_ids, s.step_keys, s.repeat_idxs].some((x) => Array.isArray(x) && x.length === 0)) return [];
  return queryResults(q, projectId, {
    run_id: runId, ...(s.scenario_ids ? { scenario_ids: s.scenario_ids } : {}), ...(s.step_keys ? { step_keys: s.step_keys } : {}), ...(s.repeat_idxs ? { repeat_idxs: s.repeat_idxs } : {}),
  }, undefined);
}
