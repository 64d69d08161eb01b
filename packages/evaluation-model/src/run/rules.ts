// The rules of one evaluation run's stream (reference evaluations §2.3, §3.3; docs/design/evaluations.md
// §3.4). Every event of a run, its scenarios, results (cells) and metrics is keyed
// `<project_id>:<run_id>` on evaluations.v1, so it is decided in that partition's order, identically on
// every replay. The state is the run's own rows only: a run never reads the accounts read model here
// (the command checks the revisions a run names before appending, and the event carries them), so a
// replay of evaluations.v1 decides the same whatever the accounts projector has reached.
import { accepted, reject, type Decision, type RejectionPresentations } from '@llm/account-model';
import { isUuid } from '@llm/account-model';
import type { EvaluationEvent } from '../evaluation-event.ts';
import { QUEUE_EVENT_TYPES, QUEUE_REJECTIONS, decideQueue, malformedQueue, type QueueState } from '../queue/rules.ts';

export interface RunState {
  /** The run the event names, as stored (any project: the rule compares). */
  run: { id: string; projectId: string; isClosed: boolean } | undefined;
  /** Of the scenario ids the event names, those stored in this run. */
  scenariosInRun: string[];
  /** Of the scenario ids an `added` event names, those stored anywhere. */
  scenariosTaken: string[];
  /** Queue events: the queues they name (stored anywhere) and the run's default queue. */
  queues?: QueueState[];
}

export const RUN_REJECTIONS = {
  evaluation_run_exists: 'conflict',
  evaluation_run_not_found: 'not_found',
  /** The reference's 409 body: `{"detail": {"message": "Cannot modify a closed evaluation.", "run_id", …ids}}`. */
  evaluation_run_closed: { kind: 'conflict', body: 'nested' },
  evaluation_scenario_exists: 'conflict',
  evaluation_scenario_not_found: 'not_found',
  /** A cell or metric for a scenario the run does not have (populate's 400; the reference's `/results/` 500 [quirk]). */
  evaluation_scenario_missing: 'invalid',
  /** The run's log holds an event that cannot be a fact as written (not a UUID, not a time). */
  evaluation_event_malformed: 'unprocessable',
  /** The store could not hold the event's data; recorded by the projector. */
  unstorable: 'unprocessable',
  ...QUEUE_REJECTIONS,
} as const satisfies RejectionPresentations<string>;
export type RunRejection = keyof typeof RUN_REJECTIONS;

export const RUN_CLOSED_MESSAGE = 'Cannot modify a closed evaluation.';
export const RUN_NOT_FOUND_MESSAGE = 'Evaluation run not found.';
export const scenarioMissingMessage = (ids: readonly string[]): string =>
  `Cannot populate a result for a scenario that does not exist. scenario_ids=[${ids.map((i) => `'${i}'`).join(', ')}]`;

/** Types that change a run's content: refused on a closed run. Opening/closing and deleting are not. */
const MUTATES_CONTENT = new Set<string>([
  'evaluations.run.edited', 'evaluations.scenarios.added', 'evaluations.scenarios.edited', 'evaluations.scenarios.deleted',
  'evaluations.results.upserted', 'evaluations.results.deleted', 'evaluations.metrics.upserted', 'evaluations.metrics.deleted',
  // Refreshing a closed run's metrics is refused too (the reference answers an empty 200: a [quirk]).
  'evaluations.metrics.refreshed', 'evaluations.run.schemas_inferred',
  // Executing a closed run is refused (`…/process` answers the closed-run 409).
  'evaluations.run.dispatched',
  // Queues are created and edited on open runs only (deleting them is allowed on closed runs).
  'evaluations.queues.created', 'evaluations.queues.edited',
]);

/** The run an event is about. */
export function runIdOf(e: EvaluationEvent): string {
  return e.type === 'evaluations.run.created' || e.type === 'evaluations.run.edited' ? e.payload.run?.run_id ?? '' : e.payload.run_id;
}

/** The scenario ids an event names (the state loads which of them exist). */
export function scenarioIdsOf(e: EvaluationEvent): string[] {
  switch (e.type) {
    case 'evaluations.scenarios.added':
    case 'evaluations.scenarios.edited': return e.payload.scenarios.map((s) => s.scenario_id);
    case 'evaluations.scenarios.deleted': return e.payload.scenario_ids;
    case 'evaluations.results.upserted': return [...new Set(e.payload.results.map((r) => r.scenario_id))];
    case 'evaluations.metrics.upserted': return [...new Set(e.payload.metrics.map((m) => m.scenario_id).filter((s) => s !== ''))];
    case 'evaluations.metrics.refreshed': return e.payload.metric && e.payload.metric.scenario_id !== '' ? [e.payload.metric.scenario_id] : [];
    default: return [];
  }
}

const isTime = (s: string): boolean => s === '' || !Number.isNaN(Date.parse(s));
const optionalUuid = (s: string): boolean => s === '' || isUuid(s);

/** The ids and times the projection casts: anything else is a malformed event, never a failing batch. */
function malformed(e: EvaluationEvent): string | undefined {
  if (!isUuid(runIdOf(e))) return 'run id is not a UUID';
  if (!isUuid(e.projectId)) return 'project id is not a UUID';
  if (QUEUE_EVENT_TYPES.has(e.type)) return malformedQueue(e);
  switch (e.type) {
    case 'evaluations.scenarios.added':
    case 'evaluations.scenarios.edited':
      for (const s of e.payload.scenarios) if (!isUuid(s.scenario_id) || !isTime(s.timestamp)) return 'a scenario id or timestamp is malformed';
      return undefined;
    case 'evaluations.scenarios.deleted': return e.payload.scenario_ids.every(isUuid) ? undefined : 'a scenario id is not a UUID';
    case 'evaluations.results.upserted':
      for (const r of e.payload.results) {
        if (!isUuid(r.result_id) || !isUuid(r.scenario_id) || !optionalUuid(r.trace_id) || !optionalUuid(r.hash_id) || !optionalUuid(r.testcase_id) || !isTime(r.timestamp)) {
          return 'a result id, scenario id, trace id, hash id, testcase id or timestamp is malformed';
        }
      }
      return undefined;
    case 'evaluations.results.deleted': return e.payload.result_ids.every(isUuid) ? undefined : 'a result id is not a UUID';
    case 'evaluations.metrics.upserted':
      for (const m of e.payload.metrics) {
        if (!isUuid(m.metric_id) || !optionalUuid(m.scenario_id) || !isTime(m.timestamp)) return 'a metric id, scenario id or timestamp is malformed';
        if (m.scenario_id !== '' && m.timestamp !== '') return 'a metric has both a scenario and a timestamp';
      }
      return undefined;
    case 'evaluations.metrics.deleted': return e.payload.metric_ids.every(isUuid) ? undefined : 'a metric id is not a UUID';
    case 'evaluations.run.schemas_inferred': {
      try {
        const v: unknown = JSON.parse(e.payload.schemas_json);
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? undefined : 'schemas_json is not an object';
      } catch { return 'schemas_json is not JSON'; }
    }
    case 'evaluations.run.dispatch_finished': return isUuid(e.payload.dispatch_id) ? undefined : 'the dispatch id is not a UUID';
    case 'evaluations.run.dispatched': {
      if (!isUuid(e.payload.dispatch_id)) return 'the dispatch id is not a UUID';
      try {
        const v: unknown = e.payload.slice_json === '' ? {} : JSON.parse(e.payload.slice_json);
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? undefined : 'slice_json is not an object';
      } catch { return 'slice_json is not JSON'; }
    }
    case 'evaluations.metrics.refreshed': {
      const m = e.payload.metric;
      if (!m || !isUuid(m.metric_id) || !optionalUuid(m.scenario_id) || !isTime(m.timestamp)) return 'the metric id, scenario id or timestamp is malformed';
      if (m.scenario_id !== '' && m.timestamp !== '') return 'the metric has both a scenario and a timestamp';
      return Number.isSafeInteger(e.payload.results_seq) && e.payload.results_seq >= 0 ? undefined : 'results_seq is not a count';
    }
    default: return undefined;
  }
}

/** Whether the event is a fact of the run, given the run's rows as stored. */
export function decideRun(e: EvaluationEvent, s: RunState): Decision<RunRejection> {
  const bad = malformed(e);
  if (bad) return reject('evaluation_event_malformed', bad);
  const runId = runIdOf(e);
  if (e.type === 'evaluations.run.created') {
    return s.run ? reject('evaluation_run_exists', 'An evaluation run with this id already exists.') : accepted;
  }
  // Another project's run is unknown here (tenancy), whatever the event claims.
  if (!s.run || s.run.projectId !== e.projectId) return reject('evaluation_run_not_found', RUN_NOT_FOUND_MESSAGE, { run_id: runId });
  if (s.run.isClosed && MUTATES_CONTENT.has(e.type)) {
    const ids = scenarioIdsOf(e);
    return reject('evaluation_run_closed', RUN_CLOSED_MESSAGE, { run_id: runId, ...(ids.length ? { scenario_ids: ids } : {}) });
  }
  if (QUEUE_EVENT_TYPES.has(e.type)) return decideQueue(e, runId, s.queues ?? []);
  const inRun = new Set(s.scenariosInRun);
  switch (e.type) {
    case 'evaluations.scenarios.added': {
      const ids = e.payload.scenarios.map((x) => x.scenario_id);
      if (new Set(ids).size !== ids.length || s.scenariosTaken.length > 0) return reject('evaluation_scenario_exists', 'A scenario with this id already exists.', { scenario_ids: s.scenariosTaken });
      return accepted;
    }
    case 'evaluations.scenarios.edited':
    case 'evaluations.scenarios.deleted': {
      const missing = scenarioIdsOf(e).filter((id) => !inRun.has(id));
      return missing.length ? reject('evaluation_scenario_not_found', 'Scenario not found.', { scenario_ids: missing }) : accepted;
    }
    case 'evaluations.results.upserted':
    case 'evaluations.metrics.upserted':
    case 'evaluations.metrics.refreshed': {
      const missing = scenarioIdsOf(e).filter((id) => !inRun.has(id));
      return missing.length ? reject('evaluation_scenario_missing', scenarioMissingMessage(missing), { scenario_ids: missing }) : accepted;
    }
    default: return accepted;
  }
}
