// The one reader of evaluation_queues (written by projector-evaluations only): the state a queue event
// is decided on and the rows the routes answer with, scoped to the caller's project.
import { asUuid, type Queryable } from '@llm/account-model';
import type { EvaluationEvent } from '../evaluation-event.ts';
import { type Where, project, uuids, type Windowing } from '../sql-where.ts';
import { queueIdsOf, type QueueState } from './rules.ts';

type Json = Record<string, unknown>;

export interface QueueRow {
  id: string; run_id: string; project_id: string; name: string | null; description: string | null; status: string; flags: Json; tags: Json | null; meta: Json | null;
  data: Json | null; created_at: Date; created_by_id: string | null; updated_at: Date | null; updated_by_id: string | null; deleted_at: Date | null; deleted_by_id: string | null;
}

const COLUMNS = `id::text AS id, run_id::text AS run_id, project_id::text AS project_id, name, description, status, flags, tags, meta, data,
  created_at, created_by_id, updated_at, updated_by_id, deleted_at, deleted_by_id`;
const isDefault = "coalesce((flags->>'is_default')::boolean, false)";

/** The queues a queue event names (wherever they are) and the run's default queue. */
export async function loadQueueState(q: Queryable, e: EvaluationEvent, runId: string | null): Promise<QueueState[]> {
  const ids = queueIdsOf(e).map(asUuid).filter((x): x is string => x !== null);
  const rows = (await q.query<{ id: string; run_id: string; is_default: boolean; archived: boolean }>(
    `SELECT id::text AS id, run_id::text AS run_id, ${isDefault} AS is_default, deleted_at IS NOT NULL AS archived
       FROM evaluation_queues WHERE id = ANY($1::uuid[]) OR (run_id = $2::uuid AND ${isDefault})`,
    [ids, runId],
  )).rows;
  return rows.map((r) => ({ id: r.id, runId: r.run_id, isDefault: r.is_default, archived: r.archived }));
}

export async function readQueues(q: Queryable, projectId: string, ids: readonly string[]): Promise<QueueRow[]> {
  return (await q.query<QueueRow>(`SELECT ${COLUMNS} FROM evaluation_queues WHERE project_id = $1::uuid AND id = ANY($2::uuid[]) ORDER BY id`, [asUuid(projectId), uuids(ids)])).rows;
}

export async function readQueue(q: Queryable, projectId: string, id: string): Promise<QueueRow | undefined> {
  return (await readQueues(q, projectId, [id]))[0];
}

/** The run's default queue (archived too unless `activeOnly`). */
export async function readDefaultQueue(q: Queryable, projectId: string, runId: string, activeOnly: boolean): Promise<QueueRow | undefined> {
  return (await q.query<QueueRow>(
    `SELECT ${COLUMNS} FROM evaluation_queues WHERE project_id = $1::uuid AND run_id = $2::uuid AND ${isDefault}${activeOnly ? ' AND deleted_at IS NULL' : ''}`,
    [asUuid(projectId), asUuid(runId)],
  )).rows[0];
}

export interface QueueFilter {
  ids?: string[] | undefined; run_id?: string | undefined; run_ids?: string[] | undefined; user_id?: string | undefined; user_ids?: string[] | undefined;
  flags?: Json | undefined; tags?: Json | undefined; name?: string | undefined; description?: string | undefined; include_archived?: boolean | undefined;
}

/** §2.8 query: `user_id(s)` = queues assigning one of them in a lane; name/description as substrings, case-sensitive. */
export async function queryQueues(q: Queryable, projectId: string, f: QueueFilter, w: Windowing | undefined): Promise<QueueRow[]> {
  const where: Where = project(projectId);
  if (f.ids) where.add((p) => `id = ANY(${p}::uuid[])`, uuids(f.ids));
  if (f.run_id !== undefined || f.run_ids !== undefined) where.add((p) => `run_id = ANY(${p}::uuid[])`, uuids([...(f.run_id ? [f.run_id] : []), ...(f.run_ids ?? [])]));
  const users = [...(f.user_id ? [f.user_id] : []), ...(f.user_ids ?? [])];
  if (f.user_id !== undefined || f.user_ids !== undefined) {
    where.add((p) => `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(data->'user_ids') = 'array' THEN data->'user_ids' ELSE '[]'::jsonb END) lane,
                              jsonb_array_elements_text(CASE WHEN jsonb_typeof(lane) = 'array' THEN lane ELSE '[]'::jsonb END) u WHERE u = ANY(${p}::text[]))`, users);
  }
  where.contains('flags', f.flags);
  where.contains('tags', f.tags);
  if (f.name !== undefined) where.add((p) => `strpos(coalesce(name, ''), ${p}) > 0`, f.name);
  if (f.description !== undefined) where.add((p) => `strpos(coalesce(description, ''), ${p}) > 0`, f.description);
  if (f.include_archived !== true) where.parts.push('deleted_at IS NULL');
  const tail = where.window(w, 'descending');
  return (await q.query<QueueRow>(`SELECT ${COLUMNS} FROM evaluation_queues${where.sql()}${tail}`, where.values)).rows;
}
