import { dnsVerifyEnv } from '@llm/dns-verify';
import { z } from 'zod';
import { envFragments } from '@llm/config';
import { accessEnv } from '@llm/access';
import { billingEnv } from '@llm/billing';
import { headlessInitEnv, ingestPressureEnv, metricsRefreshEnv, otlpReceiversEnv, signInEnv } from '@llm/service-command';
import { dispatcherEnv } from '@llm/service-webhook-dispatcher';
import { readEventsEnv } from '@llm/service-query';
import { retentionPurgeEnv, spanPurgeEnv } from '@llm/project-purge';
import { platformFactsEnv } from '@llm/service-projector-accounts';

export const allInOneConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.postgres.shape)
  .extend(envFragments.clickhouse.shape)
  .extend(envFragments.admin.shape)
  .extend(accessEnv.shape)
  .extend(billingEnv.shape)
  .extend(dnsVerifyEnv.shape)
  .extend(signInEnv.shape)
  .extend(ingestPressureEnv.shape)
  .extend(otlpReceiversEnv.shape)
  .extend(headlessInitEnv.shape)
  .extend(metricsRefreshEnv.shape)
  .extend(dispatcherEnv.shape)
  .extend({
    /** Run the webhook dispatcher in this process (false: it runs as its own service). */
    WEBHOOK_DISPATCHER_ENABLED: z.enum(['true', 'false', '1', '0']).default('true').transform((v) => v === 'true' || v === '1'),
  })
  .extend(readEventsEnv.shape)
  .extend(spanPurgeEnv.shape)
  .extend(retentionPurgeEnv.shape)
  .extend(platformFactsEnv.shape)
  .extend({
    OTLP_MAX_BATCH_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
    OTLP_WORKERS: z.coerce.number().int().min(0).max(64).default(1),
    JSON_MAX_BODY_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
    PROJECTOR_TRACE_CACHE_BYTES: z.coerce.number().int().positive().default(256 * 1024 * 1024),
    PROJECTOR_TRACE_CACHE_SPANS: z.coerce.number().int().positive().default(100_000),
    QUERY_MAX_RESULT_BYTES: z.coerce.number().int().min(1024).default(64 * 1024 * 1024),
    QUERY_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15_000),
  });
export type AllInOneConfig = z.infer<typeof allInOneConfig>;
