// The span-store part of metrics refreshes, batched per project: refreshes that arrive while a
// batch is on the span store wait for the next one, and each batch answers all of them with one
// statement (`summariseStored`: the traces' bounds from the trace index, one summary per group and
// how many of its traces have a stored root), each refresh's (step) groups kept apart. The SDK refreshes every scenario as soon as it wrote its cells, ten or so at a time; the
// embedded span store answers one statement at a time, so per-refresh statements queued behind each
// other (docs/performance.md → Evaluations). A refresh whose traces are not all stored yet is held
// back (bounded by its deadline) and retried with a later batch; it never delays the others.
import { AppError, sleep, unavailable } from '@llm/errors';
import type { StoredSummaries, TraceMetrics, TraceMetricSpec } from '@llm/span-read';

interface Job {
  groups: string[][];
  specs: TraceMetricSpec[][];
  /** The job's specs as one key: only jobs with the same specs share a statement (one job's specs never refuse another's). */
  signature: string;
  /** Until when the job waits for its traces to be stored; then it is computed with what is there. */
  deadline: number;
  attempt: number;
  resolve: (summaries: Array<Record<string, unknown>>) => void;
  reject: (err: unknown) => void;
}

const readError = (err: unknown): unknown =>
  err instanceof AppError ? err : unavailable('read_model_unavailable', 'The span store could not answer in time; retry shortly.', err);

export class TraceSummaryBatcher {
  private readonly queues = new Map<string, Job[]>();
  private readonly running = new Set<string>();

  constructor(private readonly source: TraceMetrics, private readonly maxTracesPerBatch = 20_000) {}

  /** One summary per group of traces (32 hex) over their root spans, `specs[i]` for group i. */
  summarise(projectId: string, groups: string[][], specs: TraceMetricSpec[][], waitMs: number): Promise<Array<Record<string, unknown>>> {
    return new Promise((resolve, reject) => {
      const signature = JSON.stringify([...new Set(specs.flat().map((x) => `${x.type} ${x.path}`))].sort());
      this.enqueue(projectId, { groups, specs, signature, deadline: Date.now() + waitMs, attempt: 0, resolve, reject });
    });
  }

  private enqueue(projectId: string, job: Job): void {
    const q = this.queues.get(projectId);
    if (q) q.push(job);
    else this.queues.set(projectId, [job]);
    if (!this.running.has(projectId)) void this.pump(projectId);
  }

  /** Runs the project's batches one after the other while jobs are waiting. */
  private async pump(projectId: string): Promise<void> {
    this.running.add(projectId);
    try {
      for (;;) {
        const queue = this.queues.get(projectId) ?? [];
        if (queue.length === 0) { this.queues.delete(projectId); return; }
        // A batch takes jobs in arrival order up to the trace budget (always at least one), with
        // the first job's specs (in practice: scenarios of one run). Jobs sharing a trace go to
        // different batches: a trace counts in one group of a summary.
        const batch: Job[] = [];
        const rest: Job[] = [];
        const seen = new Set<string>();
        for (const j of queue) {
          const ids = j.groups.flat();
          const fits = j.signature === batch[0]?.signature && seen.size + ids.length <= this.maxTracesPerBatch && !ids.some((t) => seen.has(t));
          if (batch.length === 0 || fits) {
            batch.push(j);
            for (const t of ids) seen.add(t);
          } else rest.push(j);
        }
        this.queues.set(projectId, rest);
        await this.run(projectId, batch);
      }
    } finally {
      this.running.delete(projectId);
    }
  }

  private async run(projectId: string, batch: Job[]): Promise<void> {
    let result: StoredSummaries;
    try {
      result = await this.source.summariseStored(projectId, batch.flatMap((j) => j.groups), batch.flatMap((j) => j.specs));
    } catch (err) {
      for (const j of batch) j.reject(readError(err));
      return;
    }
    if (!result.computed) {
      // The specs compute nothing (the same for every job here): nothing to wait for.
      for (const j of batch) j.resolve(j.groups.map(() => ({})));
      return;
    }
    const now = Date.now();
    let at = 0;
    for (const j of batch) {
      const n = j.groups.length;
      const stored = result.stored.slice(at, at + n).reduce((a, b) => a + b, 0);
      const summaries = result.summaries.slice(at, at + n);
      at += n;
      if (stored >= new Set(j.groups.flat()).size || now >= j.deadline) j.resolve(summaries);
      else void this.retryLater(projectId, j);
    }
  }

  /** Back off (50 ms doubling up to 500 ms, never past the deadline), then queue the job again. */
  private async retryLater(projectId: string, job: Job): Promise<void> {
    await sleep(Math.max(0, Math.min(50 * 2 ** job.attempt, 500, job.deadline - Date.now())));
    this.enqueue(projectId, { ...job, attempt: job.attempt + 1 });
  }
}
