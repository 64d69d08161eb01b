// Deleted projects' evaluation runs leave the read model, in the background, removed by the owner of
// the evaluation tables (one writer per table). The evaluation tables have no foreign key to the
// accounts tables (another projector owns those, and a replay of evaluations.v1 may run ahead of
// theirs), so a project's deletion does not cascade to them: this worker reads the accounts read
// model's project_tombstones (written by projector-accounts' migration 0017 on every delete path)
// and deletes the runs of projects deleted more than `delayMs` ago, with their scenarios, results
// and metrics (ON DELETE CASCADE). Idempotent, so it needs no ledger: a pass deletes whatever runs of
// tombstoned projects are there — also runs a replay or a late record put back. Reads stop at once
// without it (the project's keys and memberships are gone with the project).
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import type { Pool } from '@llm/postgres';

const purgedRuns = counter('evaluation_purge_runs_total', 'Evaluation runs (with their scenarios, results and metrics) purged with their deleted projects.');
const purgeFailures = counter('evaluation_purge_failures_total', 'Passes of the evaluation-run purge that failed (retried at the next poll).');

export interface RunPurgeSettings { enabled: boolean; intervalMs: number; delayMs: number }

export interface RunPurge {
  start(): void;
  stop(): Promise<void>;
  /** One pass: deletes every run of a project tombstoned more than delayMs ago; returns how many. */
  purgeDue(): Promise<number>;
}

const BATCH = 500;

export function createRunPurge(deps: { pool: Pool; log: Logger }, s: RunPurgeSettings): RunPurge {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  async function purgeDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const r = await deps.pool.query(
        `DELETE FROM evaluation_runs WHERE id IN (
           SELECT r.id FROM evaluation_runs r JOIN project_tombstones t ON t.project_id = r.project_id
            WHERE t.deleted_at <= now() - make_interval(secs => $1::double precision / 1000) LIMIT ${BATCH})`,
        [s.delayMs],
      );
      total += r.rowCount ?? 0;
      if ((r.rowCount ?? 0) < BATCH) break;
    }
    if (total > 0) { purgedRuns(total); deps.log.info({ runs: total }, 'evaluation runs of deleted projects purged'); }
    return total;
  }

  const tick = (): void => {
    if (stopped) return;
    running = purgeDue().then(() => undefined, (err: unknown) => { purgeFailures(); deps.log.warn({ err }, 'evaluation-run purge failed; retried at the next poll'); })
      .finally(() => { running = undefined; if (!stopped) timer = setTimeout(tick, s.intervalMs); });
  };

  return {
    start() { if (!s.enabled || !stopped) return; stopped = false; timer = setTimeout(tick, s.intervalMs); },
    async stop() { stopped = true; if (timer) clearTimeout(timer); await running; },
    purgeDue,
  };
}
