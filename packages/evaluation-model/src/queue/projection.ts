// The SQL of accepted queue events (rules: rules.ts), run by projector-evaluations in its batch
// transaction with the run's other facts; and the run's `is_queue` flag, recomputed whenever a queue
// or the run's steps change (§3.2: has_human ∧ an active default queue).
import type { SqlStatement } from '@llm/account-model';
import type { EvaluationQueueInfo } from '@llm/events';
import type { EvaluationEvent } from '../evaluation-event.ts';

const j = (col: string): string => `nullif(${col}, '')::jsonb`;

function arrays(rows: readonly EvaluationQueueInfo[]): unknown[] {
  return [rows.map((r) => r.queue_id), rows.map((r) => r.name), rows.map((r) => r.description), rows.map((r) => r.status || 'pending'),
    rows.map((r) => r.flags_json), rows.map((r) => r.tags_json), rows.map((r) => r.meta_json), rows.map((r) => r.data_json)];
}
const UNNEST = 'unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS x(id, name, description, status, flags, tags, meta, data)';

/** The run's `is_queue`: human annotation steps and an active default queue. */
export function isQueueRecompute(runId: string): SqlStatement {
  return {
    text: `UPDATE evaluation_runs r SET flags = r.flags || jsonb_build_object('is_queue',
             coalesce((r.flags->>'has_human')::boolean, false)
             AND EXISTS (SELECT 1 FROM evaluation_queues q WHERE q.run_id = r.id AND coalesce((q.flags->>'is_default')::boolean, false) AND q.deleted_at IS NULL))
           WHERE r.id = $1::uuid`,
    values: [runId],
  };
}

export function projectQueue(e: EvaluationEvent, at: string, by: string | null): SqlStatement[] {
  switch (e.type) {
    case 'evaluations.queues.created':
      return [{
        text: `INSERT INTO evaluation_queues (id, name, description, status, flags, tags, meta, data, run_id, project_id, created_at, created_by_id)
               SELECT x.id::uuid, nullif(x.name, ''), nullif(x.description, ''), x.status, coalesce(${j('x.flags')}, '{}'::jsonb), ${j('x.tags')}, ${j('x.meta')}, ${j('x.data')},
                      $9::uuid, $10::uuid, $11, $12
                 FROM ${UNNEST}`,
        values: [...arrays(e.payload.queues), e.payload.run_id, e.projectId, at, by],
      }, isQueueRecompute(e.payload.run_id)];
    case 'evaluations.queues.edited':
      return [{
        text: `UPDATE evaluation_queues q SET name = nullif(x.name, ''), description = nullif(x.description, ''), status = x.status,
                 flags = coalesce(${j('x.flags')}, '{}'::jsonb), tags = ${j('x.tags')}, meta = ${j('x.meta')}, data = ${j('x.data')}, updated_at = $10, updated_by_id = $11
                 FROM ${UNNEST}
                WHERE q.id = x.id::uuid AND q.run_id = $9::uuid`,
        values: [...arrays(e.payload.queues), e.payload.run_id, at, by],
      }, isQueueRecompute(e.payload.run_id)];
    case 'evaluations.queues.deleted':
      return [
        { text: 'DELETE FROM evaluation_queues WHERE run_id = $1::uuid AND id = ANY($2::uuid[])', values: [e.payload.run_id, e.payload.queue_ids] },
        isQueueRecompute(e.payload.run_id),
      ];
    case 'evaluations.queue.archive_set':
      return [{
        text: `UPDATE evaluation_queues SET deleted_at = CASE WHEN $3 THEN $4::timestamptz END, deleted_by_id = CASE WHEN $3 THEN $5 END, updated_at = $4, updated_by_id = $5
                WHERE id = $2::uuid AND run_id = $1::uuid`,
        values: [e.payload.run_id, e.payload.queue_id, e.payload.archived, at, by],
      }, isQueueRecompute(e.payload.run_id)];
    default:
      return [];
  }
}
