// The span purge worker's settings (SPAN_PURGE_*), shared by the query service and the all-in-one.
import { z } from 'zod';
import { envFragments } from '@llm/config';

export const spanPurgeEnv = z.object({
  /** Run the purge worker in this process (false: another process with both stores runs it). */
  SPAN_PURGE_ENABLED: envFragments.bool.default(true),
  /** Time between polls of the project tombstones. */
  SPAN_PURGE_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** How long after a project's deletion its rows are purged (spans already in Kafka land first). */
  SPAN_PURGE_DELAY_MS: z.coerce.number().int().min(0).default(60_000),
});
export type SpanPurgeEnv = z.infer<typeof spanPurgeEnv>;

export const spanPurgeSettingsFromEnv = (env: SpanPurgeEnv): { enabled: boolean; intervalMs: number; delayMs: number } =>
  ({ enabled: env.SPAN_PURGE_ENABLED, intervalMs: env.SPAN_PURGE_INTERVAL_MS, delayMs: env.SPAN_PURGE_DELAY_MS });
