// The command side's evaluation worker (reference evaluations §4.2; docs/design/evaluations.md
// §3.10): claims the executions owed to runs (evaluation_dispatches, recorded by
// projector-evaluations from `evaluations.run.dispatched`) one at a time under a lease, keeps the
// lease alive while it works, executes (run-executor.ts) on behalf of the user who dispatched, and
// finishes it with `evaluations.run.dispatch_finished` (on the log: a replay owes only unfinished
// dispatches). A process that dies mid-run leaves the lease to lapse: the row is claimed again
// (cells already written are kept; a re-execution writes only the missing ones). After
// `maxAttempts` claims a row is abandoned and its run marked `failure`, so a run that can never
// execute does not hold the queue. Several replicas share the table (`FOR UPDATE SKIP LOCKED`).
import type { Logger } from 'pino';
import { claimDispatch, exhaustedDispatches, extendLease, finishDispatch, releaseDispatch, readRun, type DispatchRow } from '@llm/evaluation-model';
import type { Pool } from '@llm/postgres';
import { projectActor, type Actor } from '../../actor.ts';
import type { EvaluationCommands } from '../adapters/evaluation-commands.ts';
import type { RunExecutor } from './run-executor.ts';

export interface DispatchWorkerOptions {
  /** How often an idle worker looks for work (EVALUATION_WORKER_POLL_MS). */
  pollMs: number;
  /** How long a claim holds before another worker may take the row (renewed while working). */
  leaseMs: number;
  maxAttempts: number;
}

export class DispatchWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly pool: Pool, private readonly executor: RunExecutor, private readonly evaluations: EvaluationCommands,
    private readonly log: Logger, private readonly opts: DispatchWorkerOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops claiming; waits a bounded time for the dispatch in hand (past it, its lease lapses and it is retried elsewhere). */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise<void>((resolve) => { timer = setTimeout(resolve, graceMs); timer.unref(); })]);
    clearTimeout(timer);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.drain().catch((err: unknown) => { this.log.error({ err }, 'evaluation worker pass failed'); }).finally(() => {
        this.running = undefined;
        this.schedule(this.opts.pollMs);
      });
    }, ms);
    this.timer.unref();
  }

  /** Claims and executes until nothing is waiting (or the worker stops). */
  async drain(): Promise<void> {
    for (const gone of await exhaustedDispatches(this.pool, this.opts.maxAttempts)) await this.abandon(gone);
    while (!this.stopped) {
      const d = await claimDispatch(this.pool, this.opts.leaseMs, this.opts.maxAttempts);
      if (!d) return;
      await this.one(d);
    }
  }

  private async one(d: DispatchRow): Promise<void> {
    const keepAlive = setInterval(() => { extendLease(this.pool, d.id, this.opts.leaseMs).catch(() => undefined); }, Math.max(1_000, Math.floor(this.opts.leaseMs / 3)));
    keepAlive.unref();
    try {
      const actor = await this.actorOf(d);
      const outcome = actor ? await this.executor.execute(actor, d) : 'skipped: the project is gone';
      await this.finish(actor, d, outcome);
      this.log.info({ dispatch: d.id, run: d.run_id, outcome }, 'evaluation dispatch finished');
    } catch (err) {
      // Left claimed: the lease lapses and the row is tried again (until maxAttempts), unless stopping.
      this.log.warn({ err, dispatch: d.id, run: d.run_id, attempt: d.attempts }, 'evaluation dispatch failed; it will be retried');
      if (this.stopped) await releaseDispatch(this.pool, d.id).catch(() => undefined);
    } finally {
      clearInterval(keepAlive);
    }
  }

  /** The dispatching user in the run's project: the scope the run's writes are made under. */
  private actorOf(d: Pick<DispatchRow, 'id' | 'project_id' | 'created_by_id'>): Promise<Actor | undefined> {
    return projectActor(this.pool, d.project_id, d.created_by_id, `dispatch-${d.id}`);
  }

  /** The finish, on the run's stream; a run that cannot take it (gone, project gone) has its row finished in place. */
  private async finish(actor: Actor | undefined, d: Pick<DispatchRow, 'id' | 'run_id'>, outcome: string): Promise<void> {
    if (actor) {
      try {
        await this.evaluations.run(actor, { type: 'evaluations.run.dispatch_finished', runId: d.run_id, payload: { run_id: d.run_id, dispatch_id: d.id, outcome: outcome.slice(0, 2000) } });
        return;
      } catch (err) {
        this.log.warn({ err, dispatch: d.id, run: d.run_id }, 'could not record a dispatch finish; finishing its row in place');
      }
    }
    await finishDispatch(this.pool, d.id, outcome);
  }

  /** A dispatch that used up its attempts: finished as abandoned, its run ends `failure` (unless closed or gone meanwhile). */
  private async abandon(gone: { id: string; run_id: string; project_id: string }): Promise<void> {
    this.log.error({ dispatch: gone.id, run: gone.run_id }, 'evaluation dispatch abandoned after its attempts');
    const run = await readRun(this.pool, gone.project_id, gone.run_id);
    const actor = await this.actorOf({ id: gone.id, project_id: gone.project_id, created_by_id: null });
    if (actor && run && run.flags.is_closed !== true) {
      await this.evaluations.run(actor, {
        type: 'evaluations.run.lifecycle_set', runId: run.id, payload: { run_id: run.id, status: 'failure', is_active: 'false', is_closed: '' },
      }).catch((err: unknown) => { this.log.warn({ err, run: run.id }, 'could not mark an abandoned run failed'); });
    }
    await this.finish(run ? actor : undefined, gone, 'abandoned');
  }
}
