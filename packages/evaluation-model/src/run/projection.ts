// The SQL of an accepted evaluations event (rules: rules.ts). Run by projector-evaluations in its
// batch transaction; the only writer of the evaluation_* tables. JSON text '' and interval -1 are
// stored as NULL; a cell (or metric key) written twice in one event keeps the last write.
import type { SqlStatement } from '@llm/account-model';
import type { EvaluationMetricInfo, EvaluationResultInfo, EvaluationRunInfo, EvaluationScenarioInfo } from '@llm/events';
import type { EvaluationEvent } from '../evaluation-event.ts';
import type { RunState } from './rules.ts';
import { dispatchFinish, dispatchInsert } from '../dispatch/queue.ts';
import { isQueueRecompute, projectQueue } from '../queue/projection.ts';
import { QUEUE_EVENT_TYPES } from '../queue/rules.ts';

const eventTime = (e: Pick<EvaluationEvent, 'timeUs'>): string => {
  const d = new Date(e.timeUs / 1000);
  return Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
};
const actor = (e: Pick<EvaluationEvent, 'actorId'>): string | null => e.actorId || null;
/** Every cell write or delete moves the run's sequence: a metrics refresh records the one it saw. */
const bumpResults = (runId: string): SqlStatement => ({ text: 'UPDATE evaluation_runs SET results_seq = results_seq + 1 WHERE id = $1::uuid', values: [runId] });

function runColumns(r: EvaluationRunInfo): unknown[] {
  return [r.run_id, r.name || null, r.description || null, r.status || 'pending', r.flags_json || '{}', r.tags_json || null, r.meta_json || null, r.data_json || null];
}

const lastBy = <T>(rows: readonly T[], key: (r: T) => string): T[] => [...new Map(rows.map((r) => [key(r), r])).values()];

function scenarioArrays(rows: readonly EvaluationScenarioInfo[]): unknown[] {
  return [rows.map((s) => s.scenario_id), rows.map((s) => s.status || 'pending'), rows.map((s) => s.timestamp), rows.map((s) => s.interval),
    rows.map((s) => s.flags_json), rows.map((s) => s.tags_json), rows.map((s) => s.meta_json)];
}
const SCENARIO_UNNEST = `unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[])
  AS s(id, status, ts, iv, flags, tags, meta)`;
const j = (col: string): string => `nullif(${col}, '')::jsonb`;

function resultArrays(rows: readonly EvaluationResultInfo[]): unknown[] {
  return [rows.map((r) => r.result_id), rows.map((r) => r.scenario_id), rows.map((r) => r.step_key), rows.map((r) => r.repeat_idx),
    rows.map((r) => r.status || 'pending'), rows.map((r) => r.trace_id), rows.map((r) => r.hash_id), rows.map((r) => r.testcase_id),
    rows.map((r) => r.error_json), rows.map((r) => r.timestamp), rows.map((r) => r.interval), rows.map((r) => r.flags_json),
    rows.map((r) => r.tags_json), rows.map((r) => r.meta_json)];
}

function metricArrays(rows: readonly EvaluationMetricInfo[]): unknown[] {
  return [rows.map((m) => m.metric_id), rows.map((m) => m.scenario_id), rows.map((m) => m.timestamp), rows.map((m) => m.interval),
    rows.map((m) => m.status || 'success'), rows.map((m) => m.data_json), rows.map((m) => m.flags_json), rows.map((m) => m.tags_json), rows.map((m) => m.meta_json)];
}

export function projectRun(e: EvaluationEvent, _s: RunState): SqlStatement[] {
  const at = eventTime(e);
  const by = actor(e);
  if (QUEUE_EVENT_TYPES.has(e.type)) return projectQueue(e, at, by);
  switch (e.type) {
    case 'evaluations.run.created': {
      const r = e.payload.run!;
      return [{
        text: `INSERT INTO evaluation_runs (id, name, description, status, flags, tags, meta, data, project_id, created_at, created_by_id)
               VALUES ($1::uuid, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb, $9::uuid, $10, $11)`,
        values: [...runColumns(r), e.projectId, at, by],
      }, isQueueRecompute(r.run_id)];
    }
    case 'evaluations.run.edited': {
      const r = e.payload.run!;
      return [{
        text: `UPDATE evaluation_runs SET name = $2, description = $3, status = $4, flags = $5::jsonb, tags = $6::jsonb, meta = $7::jsonb, data = $8::jsonb,
                 updated_at = $9, updated_by_id = $10 WHERE id = $1::uuid`,
        values: [...runColumns(r), at, by],
      }, isQueueRecompute(r.run_id)];
    }
    case 'evaluations.run.lifecycle_set': {
      const p = e.payload;
      return [{
        text: `UPDATE evaluation_runs SET
                 flags = flags || jsonb_strip_nulls(jsonb_build_object('is_closed', nullif($2, '')::boolean, 'is_active', nullif($3, '')::boolean)),
                 status = coalesce(nullif($4, ''), status), updated_at = $5, updated_by_id = $6
               WHERE id = $1::uuid`,
        values: [p.run_id, p.is_closed, p.is_active, p.status, at, by],
      }];
    }
    case 'evaluations.run.schemas_inferred':
      // Each named step without an outputs schema takes the inferred one; a schema already there stays.
      return [{
        text: `UPDATE evaluation_runs r SET data = jsonb_set(r.data, '{steps}', (
                 SELECT coalesce(jsonb_agg(CASE WHEN $2::jsonb ? (st->>'key') AND (st #> '{schemas,outputs}') IS NULL
                   THEN jsonb_set(st, '{schemas}', (CASE WHEN jsonb_typeof(st->'schemas') = 'object' THEN st->'schemas' ELSE '{}'::jsonb END)
                                                   || jsonb_build_object('outputs', $2::jsonb -> (st->>'key')))
                   ELSE st END ORDER BY ord), '[]'::jsonb)
                 FROM jsonb_array_elements(r.data->'steps') WITH ORDINALITY AS t(st, ord))),
                 updated_at = $3, updated_by_id = $4
               WHERE r.id = $1::uuid AND jsonb_typeof(r.data->'steps') = 'array'`,
        values: [e.payload.run_id, e.payload.schemas_json, at, by],
      }];
    case 'evaluations.run.dispatched':
      return [dispatchInsert(e, at, by)];
    case 'evaluations.run.dispatch_finished':
      return [dispatchFinish(e, at)];
    case 'evaluations.run.deleted':
      return [{ text: 'DELETE FROM evaluation_runs WHERE id = $1::uuid', values: [e.payload.run_id] }];
    case 'evaluations.scenarios.added':
      return [{
        text: `INSERT INTO evaluation_scenarios (id, status, "timestamp", "interval", flags, tags, meta, run_id, project_id, created_at, created_by_id)
               SELECT s.id::uuid, s.status, nullif(s.ts, '')::timestamptz, nullif(s.iv, -1), ${j('s.flags')}, ${j('s.tags')}, ${j('s.meta')},
                      $8::uuid, $9::uuid, $10, $11
                 FROM ${SCENARIO_UNNEST}`,
        values: [...scenarioArrays(e.payload.scenarios), e.payload.run_id, e.projectId, at, by],
      }];
    case 'evaluations.scenarios.edited':
      return [{
        text: `UPDATE evaluation_scenarios x SET status = s.status, "timestamp" = nullif(s.ts, '')::timestamptz, "interval" = nullif(s.iv, -1),
                 flags = ${j('s.flags')}, tags = ${j('s.tags')}, meta = ${j('s.meta')}, updated_at = $9, updated_by_id = $10
                 FROM ${SCENARIO_UNNEST}
                WHERE x.id = s.id::uuid AND x.run_id = $8::uuid`,
        values: [...scenarioArrays(lastBy(e.payload.scenarios, (s) => s.scenario_id.toLowerCase())), e.payload.run_id, at, by],
      }];
    case 'evaluations.scenarios.deleted':
      return [
        { text: 'DELETE FROM evaluation_scenarios WHERE run_id = $1::uuid AND id = ANY($2::uuid[])', values: [e.payload.run_id, e.payload.scenario_ids] },
        bumpResults(e.payload.run_id),
      ];
    case 'evaluations.results.upserted': {
      const rows = lastBy(e.payload.results, (r) => `${r.scenario_id.toLowerCase()}\u0000${r.step_key}\u0000${r.repeat_idx}`);
      return [{
        // A cell written again keeps its id and creation; every other column is replaced (reference §2.3).
        text: `INSERT INTO evaluation_results (id, scenario_id, step_key, repeat_idx, status, trace_id, hash_id, testcase_id, error, "timestamp", "interval",
                 flags, tags, meta, run_id, project_id, created_at, created_by_id)
               SELECT r.id::uuid, r.scenario_id::uuid, r.step_key, r.repeat_idx, r.status, nullif(r.trace_id, '')::uuid, nullif(r.hash_id, '')::uuid,
                      nullif(r.testcase_id, '')::uuid, ${j('r.error')}, nullif(r.ts, '')::timestamptz, nullif(r.iv, -1), ${j('r.flags')}, ${j('r.tags')}, ${j('r.meta')},
                      $15::uuid, $16::uuid, $17, $18
                 FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                             $11::bigint[], $12::text[], $13::text[], $14::text[])
                   AS r(id, scenario_id, step_key, repeat_idx, status, trace_id, hash_id, testcase_id, error, ts, iv, flags, tags, meta)
               ON CONFLICT (run_id, scenario_id, step_key, repeat_idx) DO UPDATE SET
                 status = excluded.status, trace_id = excluded.trace_id, hash_id = excluded.hash_id, testcase_id = excluded.testcase_id,
                 error = excluded.error, "timestamp" = excluded."timestamp", "interval" = excluded."interval", flags = excluded.flags,
                 tags = excluded.tags, meta = excluded.meta, updated_at = excluded.created_at, updated_by_id = excluded.created_by_id`,
        values: [...resultArrays(rows), e.payload.run_id, e.projectId, at, by],
      }, bumpResults(e.payload.run_id)];
    }
    case 'evaluations.results.deleted':
      return [
        { text: 'DELETE FROM evaluation_results WHERE run_id = $1::uuid AND id = ANY($2::uuid[])', values: [e.payload.run_id, e.payload.result_ids] },
        bumpResults(e.payload.run_id),
      ];
    case 'evaluations.metrics.upserted': {
      const rows = lastBy(e.payload.metrics, (m) => `${m.scenario_id.toLowerCase()}\u0000${m.timestamp === '' ? '' : new Date(m.timestamp).toISOString()}`);
      return [{
        text: `INSERT INTO evaluation_metrics (id, scenario_id, "timestamp", "interval", status, data, flags, tags, meta, run_id, project_id, created_at, created_by_id)
               SELECT m.id::uuid, nullif(m.scenario_id, '')::uuid, nullif(m.ts, '')::timestamptz, nullif(m.iv, -1), m.status, ${j('m.data')},
                      ${j('m.flags')}, ${j('m.tags')}, ${j('m.meta')}, $10::uuid, $11::uuid, $12, $13
                 FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
                   AS m(id, scenario_id, ts, iv, status, data, flags, tags, meta)
               ON CONFLICT (run_id, (coalesce(scenario_id, '00000000-0000-0000-0000-000000000000'::uuid)), (coalesce("timestamp", 'epoch'::timestamptz)))
               DO UPDATE SET "interval" = excluded."interval", status = excluded.status, data = excluded.data, flags = excluded.flags,
                 tags = excluded.tags, meta = excluded.meta, results_seq = NULL, updated_at = excluded.created_at, updated_by_id = excluded.created_by_id`,
        values: [...metricArrays(rows), e.payload.run_id, e.projectId, at, by],
      }];
    }
    case 'evaluations.metrics.refreshed': {
      // The row of the key, unless a refresh computed on newer cells (a higher results_seq) is stored.
      const m = e.payload.metric!;
      return [{
        text: `INSERT INTO evaluation_metrics (id, scenario_id, "timestamp", "interval", status, data, flags, tags, meta, run_id, project_id, results_seq, created_at, created_by_id)
               VALUES ($1::uuid, nullif($2, '')::uuid, nullif($3, '')::timestamptz, nullif($4::bigint, -1), $5, ${j('$6')}, ${j('$7')}, ${j('$8')}, ${j('$9')},
                       $10::uuid, $11::uuid, $12::bigint, $13, $14)
               ON CONFLICT (run_id, (coalesce(scenario_id, '00000000-0000-0000-0000-000000000000'::uuid)), (coalesce("timestamp", 'epoch'::timestamptz)))
               DO UPDATE SET "interval" = excluded."interval", status = excluded.status, data = excluded.data, results_seq = excluded.results_seq,
                 updated_at = excluded.created_at, updated_by_id = excluded.created_by_id
               WHERE evaluation_metrics.results_seq IS NULL OR evaluation_metrics.results_seq <= excluded.results_seq`,
        values: [...metricArrays([m]).map((a) => (a as unknown[])[0]), e.payload.run_id, e.projectId, e.payload.results_seq, at, by],
      }];
    }
    case 'evaluations.metrics.deleted':
      return [{ text: 'DELETE FROM evaluation_metrics WHERE run_id = $1::uuid AND id = ANY($2::uuid[])', values: [e.payload.run_id, e.payload.metric_ids] }];
    default:
      return [];
  }
}
