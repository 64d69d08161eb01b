import { z } from 'zod';
import { envFragments } from '@llm/config';
import { accessEnv } from '@llm/access';
import { billingEnv } from '@llm/billing';
import { authMethodsEnv } from '@llm/auth-policy';
import { sessionEnv } from '@llm/web-session';

/** Read events (traces.fetched / traces.queried) into platform.events.v1; on by default. */
export const readEventsEnv = z.object({ EVENTS_READ_RECORDING: envFragments.bool.default(true) });

export const queryConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.postgres.shape)
  .extend(envFragments.clickhouse.shape)
  .extend(envFragments.kafka.shape)
  .extend(readEventsEnv.shape)
  .extend(accessEnv.shape)
  // Billing: the free plan (throttle fallback) is the pricing's; validated like the command side's.
  .extend(billingEnv.shape)
  .extend(sessionEnv.shape)
  .extend(authMethodsEnv.shape)
  .extend({
    JSON_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
    /** Longest a read-model query may run; beyond it the request answers 503 with Retry-After. */
    QUERY_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15_000),
    /** Approximate stored bytes one read may return (reads by id refuse above it, pages are cut). */
    QUERY_MAX_RESULT_BYTES: z.coerce.number().int().min(1024).default(64 * 1024 * 1024),
  });
export type QueryConfig = z.infer<typeof queryConfig>;
