// The executions owed to runs (reference evaluations §3.7, §4.2): `evaluations.run.dispatched`
// recorded once per dispatch id by projector-evaluations (dispatchInsert, in the batch transaction
// that applies the event), claimed by an evaluation worker under a lease, and finished by
// `evaluations.run.dispatch_finished` (dispatchFinish) — both on the log, so a replay into a fresh
// database owes exactly the dispatches that were never finished and re-executes nothing else. A
// claim takes the oldest row that is unfinished and not leased (or whose lease lapsed: its worker
// died), so each dispatch runs once at a time and a crash never loses one; a row claimed
// `maxAttempts` times is handed back as exhausted (the worker finishes it as `abandoned`). The lease
// columns (lease_until, attempts) are the workers' own bookkeeping, not projected facts.
import type { SqlStatement } from '@llm/account-model';
import type { Pool } from '@llm/postgres';
import type { EvaluationEvent } from '../evaluation-event.ts';

/** The slice a dispatch addresses: omitted = all, [] = none (reference evaluations §2.4); a live tick's window (§4.2). */
export interface DispatchSlice {
  scenario_ids?: string[]; step_keys?: string[]; repeat_idxs?: number[];
  /** A live run's tick: traces started in [oldest, newest), scenarios stamped `oldest` with `interval` minutes. */
  window?: { oldest: string; newest: string; interval: number };
}

export interface DispatchRow {
  id: string;
  run_id: string;
  project_id: string;
  slice: DispatchSlice;
  overwrite: boolean;
  created_by_id: string | null;
  attempts: number;
}

/** The row an accepted dispatch event adds (nothing when it is there already: a re-delivery). */
export function dispatchInsert(e: EvaluationEvent<'evaluations.run.dispatched'>, at: string, by: string | null): SqlStatement {
  return {
    text: `INSERT INTO evaluation_dispatches (id, run_id, project_id, slice, overwrite, created_at, created_by_id)
           VALUES ($1::uuid, $2::uuid, $3::uuid, coalesce(nullif($4, '')::jsonb, '{}'::jsonb), $5, $6, $7)
           ON CONFLICT (id) DO NOTHING`,
    values: [e.payload.dispatch_id, e.payload.run_id, e.projectId, e.payload.slice_json, e.payload.overwrite, at, by],
  };
}

/** The finish an accepted `dispatch_finished` event records (a row already finished keeps its first outcome). */
export function dispatchFinish(e: EvaluationEvent<'evaluations.run.dispatch_finished'>, at: string): SqlStatement {
  return {
    text: `UPDATE evaluation_dispatches SET finished_at = $3, outcome = left($4, 2000), lease_until = NULL
            WHERE id = $1::uuid AND run_id = $2::uuid AND finished_at IS NULL`,
    values: [e.payload.dispatch_id, e.payload.run_id, at, e.payload.outcome],
  };
}

/** Unfinished rows that used up their attempts and are not leased: the worker finishes them as abandoned. */
export async function exhaustedDispatches(pool: Pool, maxAttempts: number): Promise<Array<{ id: string; run_id: string; project_id: string }>> {
  const r = await pool.query<{ id: string; run_id: string; project_id: string }>(
    `SELECT id::text AS id, run_id::text AS run_id, project_id::text AS project_id FROM evaluation_dispatches
      WHERE finished_at IS NULL AND attempts >= $1 AND (lease_until IS NULL OR lease_until < now())
      ORDER BY created_at, id LIMIT 100`,
    [maxAttempts],
  );
  return r.rows;
}

/** Claims the oldest claimable dispatch for `leaseMs`; undefined when none is waiting. */
export async function claimDispatch(pool: Pool, leaseMs: number, maxAttempts: number): Promise<DispatchRow | undefined> {
  const r = await pool.query<DispatchRow>(
    `UPDATE evaluation_dispatches d SET lease_until = now() + make_interval(secs => $1::double precision / 1000), attempts = d.attempts + 1
      WHERE d.id = (
        SELECT id FROM evaluation_dispatches
         WHERE finished_at IS NULL AND attempts < $2 AND (lease_until IS NULL OR lease_until < now())
         ORDER BY created_at, id
         LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING d.id::text AS id, d.run_id::text AS run_id, d.project_id::text AS project_id, d.slice, d.overwrite, d.created_by_id, d.attempts`,
    [leaseMs, maxAttempts],
  );
  return r.rows[0];
}

/** Extends a held lease (a long run keeps its claim while it makes progress). */
export async function extendLease(pool: Pool, id: string, leaseMs: number): Promise<void> {
  await pool.query(`UPDATE evaluation_dispatches SET lease_until = now() + make_interval(secs => $2::double precision / 1000) WHERE id = $1::uuid AND finished_at IS NULL`, [id, leaseMs]);
}

/** Finishes a dispatch without an event: only for a row whose run can no longer take one (it is gone). */
export async function finishDispatch(pool: Pool, id: string, outcome: string): Promise<void> {
  await pool.query(`UPDATE evaluation_dispatches SET finished_at = now(), outcome = $2, lease_until = NULL WHERE id = $1::uuid`, [id, outcome.slice(0, 2000)]);
}

/** Gives a claim back early (the worker is stopping): the next claim may take it at once. */
export async function releaseDispatch(pool: Pool, id: string): Promise<void> {
  await pool.query(`UPDATE evaluation_dispatches SET lease_until = NULL WHERE id = $1::uuid AND finished_at IS NULL`, [id]);
}

/** A run's dispatches, oldest first (tests and operators). */
export async function readDispatches(pool: Pool, runId: string): Promise<Array<DispatchRow & { finished_at: Date | null; outcome: string | null }>> {
  const r = await pool.query<DispatchRow & { finished_at: Date | null; outcome: string | null }>(
    `SELECT id::text AS id, run_id::text AS run_id, project_id::text AS project_id, slice, overwrite, created_by_id, attempts, finished_at, outcome FROM evaluation_dispatches WHERE run_id = $1::uuid ORDER BY created_at, id`,
    [runId],
  );
  return r.rows;
}
