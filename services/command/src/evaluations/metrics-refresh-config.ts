// Settings of the evaluation side of the command service: metrics refreshes
// (POST /evaluations/metrics/refresh) and the evaluation worker (evaluations/worker/).
import { z } from 'zod';

export const metricsRefreshEnv = z.object({
  // How long a refresh waits for its cells' traces to be stored (spans arrive asynchronously).
  METRICS_TRACE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  // Scenarios the evaluation worker executes at once (per dispatch); 0 turns the worker off.
  EVALUATION_WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(4),
  // How often an idle worker looks for dispatched runs.
  EVALUATION_WORKER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  // How long a claimed dispatch is held before another worker may take it (renewed while working).
  EVALUATION_DISPATCH_LEASE_MS: z.coerce.number().int().min(5_000).max(3_600_000).default(60_000),
});

export interface EvaluationWorkerSettings { concurrency: number; pollMs: number; leaseMs: number }

export const evaluationWorkerSettings = (c: z.infer<typeof metricsRefreshEnv>): EvaluationWorkerSettings => ({
  concurrency: c.EVALUATION_WORKER_CONCURRENCY, pollMs: c.EVALUATION_WORKER_POLL_MS, leaseMs: c.EVALUATION_DISPATCH_LEASE_MS,
});
