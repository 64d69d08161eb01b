// Settings of evaluation metrics refreshes (POST /evaluations/metrics/refresh).
import { z } from 'zod';

export const metricsRefreshEnv = z.object({
  // How long a refresh waits for its cells' traces to be stored (spans arrive asynchronously).
  METRICS_TRACE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
});
