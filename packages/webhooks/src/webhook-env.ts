// The webhook dispatcher's configuration as environment variables: a fragment the services that
// deliver compose into their env schema (parsed once in main.ts), and the mapping to a RetryPolicy.
import { z } from 'zod';
import type { RetryPolicy } from './retry.ts';

const millis = z.coerce.number().int().positive().max(24 * 3600_000);
const count = (max: number) => z.coerce.number().int().min(1).max(max);

export const webhookEnv = z.object({
  /** Retries after the first attempt for 5xx, timeouts and transport errors (§9.7 declares 5). */
  WEBHOOK_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  /** First retry waits between half of this and this; each further retry doubles it. */
  WEBHOOK_RETRY_BASE_MS: millis.default(1000),
  /** Cap of a retry's wait. */
  WEBHOOK_RETRY_MAX_MS: millis.default(300_000),
  /** Whole delivery request, DNS to last byte (§9.6: 10 s). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().max(10 * 60_000).default(10_000),
  /** Deliveries in flight per dispatcher. */
  WEBHOOK_CONCURRENCY: count(1024).default(16),
  /** Deliveries in flight per subscription (one slow receiver cannot take every slot). */
  WEBHOOK_SUBSCRIPTION_CONCURRENCY: count(1024).default(2),
});

export type WebhookEnv = z.output<typeof webhookEnv>;

export function retryPolicyFromEnv(env: WebhookEnv): RetryPolicy {
  return { maxRetries: env.WEBHOOK_MAX_RETRIES, baseMs: env.WEBHOOK_RETRY_BASE_MS, maxMs: Math.max(env.WEBHOOK_RETRY_MAX_MS, env.WEBHOOK_RETRY_BASE_MS) };
}
