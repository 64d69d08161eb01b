// The purge workers' settings (SPAN_PURGE_*), shared by projector-spans, projector-events and the
// all-in-one (one set for both workers: they purge the same deleted projects from their own tables).
import { z } from 'zod';
import { envFragments } from '@llm/config';

export const spanPurgeEnv = z.object({
  /** Run the purge workers in this process (false: another replica or process runs them). */
  SPAN_PURGE_ENABLED: envFragments.bool.default(true),
  /** Time between polls of the project tombstones. */
  SPAN_PURGE_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** How long after a project's deletion its rows are purged (records already in Kafka land first). */
  SPAN_PURGE_DELAY_MS: z.coerce.number().int().min(0).default(60_000),
});
export type SpanPurgeEnv = z.infer<typeof spanPurgeEnv>;

export interface PurgeSettings { enabled: boolean; intervalMs: number; delayMs: number }

export const spanPurgeSettingsFromEnv = (env: SpanPurgeEnv): PurgeSettings =>
  ({ enabled: env.SPAN_PURGE_ENABLED, intervalMs: env.SPAN_PURGE_INTERVAL_MS, delayMs: env.SPAN_PURGE_DELAY_MS });

/** The retention purges' settings (issue 30): one set for every owner's worker. */
export const retentionPurgeEnv = z.object({
  /** Run the retention purges in this process (false: another replica or process runs them). */
  RETENTION_PURGE_ENABLED: envFragments.bool.default(true),
  /** Time between passes over every project (each pass removes what expired since the last). */
  RETENTION_PURGE_INTERVAL_MS: z.coerce.number().int().min(100).default(600_000),
  /** Cutoffs move in steps of this: a table is rewritten once per step, an expired row stays on disk (never readable) up to one step. */
  RETENTION_PURGE_STEP_MS: z.coerce.number().int().min(1).default(86_400_000),
});
export type RetentionPurgeEnv = z.infer<typeof retentionPurgeEnv>;
