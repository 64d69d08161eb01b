// The webhook dispatcher's configuration: the env fragment shared with the all-in-one process
// (@llm/webhooks webhookEnv plus the schedule's lease and poll), the standalone process's whole
// schema, and the mapping to the dispatcher's settings.
import { z } from 'zod';
import { envFragments } from '@llm/config';
import { secretsKeyEnv } from '@llm/oidc';
import { outboundEnv } from '@llm/outbound';
import { retryPolicyFromEnv, webhookEnv, type RetryPolicy } from '@llm/webhooks';

export const dispatcherEnv = webhookEnv.extend({
  /**
   * How long a claimed delivery stays with the dispatcher that claimed it; if that process dies,
   * the delivery is claimed again after this. At least WEBHOOK_TIMEOUT_MS + 15 s.
   */
  WEBHOOK_LEASE_MS: z.coerce.number().int().positive().max(3600_000).default(60_000),
  /** Longest pause between looks at the schedule (deliveries scheduled by other replicas). */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
});
export type DispatcherEnv = z.output<typeof dispatcherEnv>;

export const webhookDispatcherConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.postgres.shape)
  .extend(outboundEnv.shape)
  .extend(secretsKeyEnv.shape)
  .extend(dispatcherEnv.shape);
export type WebhookDispatcherConfig = z.output<typeof webhookDispatcherConfig>;

export interface DispatcherSettings {
  policy: RetryPolicy;
  timeoutMs: number;
  concurrency: number;
  perSubscription: number;
  leaseMs: number;
  pollMs: number;
  /** Stalls (tries that recorded nothing) before a delivery ends as failed; default 5. */
  stallLimit?: number;
  /** The wait after a delivery's first stall, doubling after each; default 5 s. */
  stallDelayMs?: number;
}

export const dispatcherSettingsFromEnv = (env: DispatcherEnv): DispatcherSettings => ({
  policy: retryPolicyFromEnv(env),
  timeoutMs: env.WEBHOOK_TIMEOUT_MS,
  concurrency: env.WEBHOOK_CONCURRENCY,
  perSubscription: env.WEBHOOK_SUBSCRIPTION_CONCURRENCY,
  leaseMs: Math.max(env.WEBHOOK_LEASE_MS, env.WEBHOOK_TIMEOUT_MS + 15_000),
  pollMs: env.WEBHOOK_POLL_MS,
});
