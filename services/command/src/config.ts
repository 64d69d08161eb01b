import { dnsVerifyEnv } from '@llm/dns-verify';
import { z } from 'zod';
import { envFragments } from '@llm/config';
import { accessEnv } from '@llm/access';
import { billingEnv } from '@llm/billing';
import { signInEnv } from './sign-in-config.ts';
import { ingestPressureEnv } from './ingest-pressure-config.ts';
import { otlpReceiversEnv } from './otlp-receivers-config.ts';
import { headlessInitEnv } from './headless-init-config.ts';
import { metricsRefreshEnv } from './evaluations/metrics-refresh-config.ts';

export const commandConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.postgres.shape)
  .extend(envFragments.admin.shape)
  .extend(dnsVerifyEnv.shape)
  .extend(accessEnv.shape)
  .extend(signInEnv.shape)
  .extend(billingEnv.shape)
  .extend(ingestPressureEnv.shape)
  .extend(otlpReceiversEnv.shape)
  .extend(headlessInitEnv.shape)
  .extend(metricsRefreshEnv.shape)
  // ClickHouse only by URL: PATCH/DELETE /simple/traces/{id} read the stored trace there (503 without
  // it). The embedded engine is one process's, so a separate command service cannot share it.
  .extend(envFragments.clickhouse.pick({ CLICKHOUSE_URL: true, CLICKHOUSE_DATABASE: true }).shape)
  .extend({
    OTLP_MAX_BATCH_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
    OTLP_WORKERS: z.coerce.number().int().min(0).max(64).default(1),
    JSON_MAX_BODY_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  });
export type CommandConfig = z.infer<typeof commandConfig>;
