// The webhook dispatcher (reference accounts §9.6, §9.7; DESIGN.md "Events and webhooks"): four
// parts over one Postgres schedule —
//   fan-out/                platform.events.v1 → one scheduled delivery per (event, matching subscription)
//   sender/                 the schedule → signed requests through the outbound guard, retries, records
//   deliveries-projector/   webhooks.deliveries.v1 → webhook_deliveries (what the deliveries API reads)
//   subscription-deletions/ accounts.events.v1 → a deleted subscription's deliveries removed, its id kept
// The dispatcher alone writes its tables: webhook_dispatch_tasks (fan-out inserts, sender works),
// webhook_deliveries and webhook_delivery_records (deliveries projector; a deletion from
// subscription-deletions), webhook_deleted_subscriptions (subscription-deletions).
// Runs inside the all-in-one process or alone (main.ts); replicas share the schedule.
import { fileURLToPath } from 'node:url';
import type { Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import type { SecretsKeyring } from '@llm/oidc';
import { createOutboundClient, type OutboundClientOptions } from '@llm/outbound';
import { migratePostgres, type Pool } from '@llm/postgres';
import { waitForTables } from '@llm/pg-consumer';
import type { DispatcherSettings } from './config.ts';
import { createDeliveriesProjector } from './deliveries-projector/deliveries-projector.ts';
import { createFanOut } from './fan-out/fan-out-consumer.ts';
import { createSender } from './sender/sender.ts';
import { createSubscriptionDeletions } from './subscription-deletions/deletions-consumer.ts';

export const DISPATCHER_MIGRATIONS = fileURLToPath(new URL('../migrations/', import.meta.url));
export const FAN_OUT_CONSUMER = 'webhook-dispatcher.fan-out';
export const DELIVERIES_CONSUMER = 'webhook-dispatcher.deliveries';
export const DELETIONS_CONSUMER = 'webhook-dispatcher.subscription-deletions';

/**
 * Tables of projector-accounts' migrations the dispatcher needs: it reads the accounts read model
 * (subscriptions, secrets); projector_offsets holds every Postgres consumer's positions; and
 * webhook_deliveries / webhook_delivery_records, though created by 0011-webhooks.sql, are written by
 * the dispatcher only.
 */
const ACCOUNTS_TABLES = ['projector_offsets', 'secrets', 'secret_keys', 'webhook_subscriptions', 'webhook_deliveries', 'webhook_delivery_records'];

export interface WebhookDispatcherDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  /** SECRETS_KEY: opens the subscriptions' signing secrets. */
  keyring: SecretsKeyring;
  /** The outbound guard (OUTBOUND_ALLOW_HOSTS, OUTBOUND_ALLOW_INSECURE_HTTP, …). */
  outbound: OutboundClientOptions;
  settings: DispatcherSettings;
  /** Its consumers' names (groups and offsets) start with this; another name in another database rebuilds. Default `webhook-dispatcher`. */
  consumerPrefix?: string;
}

export interface WebhookDispatcher { start(): Promise<void>; stop(): Promise<void> }

export function createWebhookDispatcher(deps: WebhookDispatcherDeps): WebhookDispatcher {
  const log = deps.log.child({ component: 'webhook-dispatcher' });
  const { settings } = deps;
  const sender = createSender({
    pool: deps.pool, producer: deps.producer, topics: deps.topics, log, keyring: deps.keyring,
    client: createOutboundClient(deps.outbound), policy: settings.policy, timeoutMs: settings.timeoutMs,
    ...(settings.stallLimit !== undefined && { stallLimit: settings.stallLimit }), ...(settings.stallDelayMs !== undefined && { stallDelayMs: settings.stallDelayMs }),
  }, { concurrency: settings.concurrency, perSubscription: settings.perSubscription, leaseMs: settings.leaseMs, pollMs: settings.pollMs });
  const named = (name: string): string => (deps.consumerPrefix === undefined ? name : name.replace(/^webhook-dispatcher\./, `${deps.consumerPrefix}.`));
  const fanOut = createFanOut({ ...deps, log, consumerName: named(FAN_OUT_CONSUMER), onScheduled: () => sender.wake() });
  const deliveries = createDeliveriesProjector({ ...deps, log, consumerName: named(DELIVERIES_CONSUMER) });
  const deletions = createSubscriptionDeletions({ ...deps, log, consumerName: named(DELETIONS_CONSUMER) });
  let stopping = false;

  return {
    async start() {
      stopping = false;
      // The accounts read model is projector-accounts' to create (in all-in-one it migrates first).
      await waitForTables(deps.pool, ACCOUNTS_TABLES, log, () => stopping);
      const applied = await migratePostgres(deps.pool, DISPATCHER_MIGRATIONS);
      if (applied.length) log.info({ applied }, 'postgres migrations applied');
      // The sender needs only Postgres and the producer: it starts at once, so deliveries due
      // (retries of a dispatcher that died) go out while the consumers are still joining their
      // groups (after a kill, the group waits for the dead member's session to time out).
      sender.start();
      await Promise.all([deliveries.start(), deletions.start(), fanOut.start()]);
    },
    async stop() {
      stopping = true;
      // Nothing new is scheduled, then the attempts in flight finish and record their outcome,
      // then the projector stops (the producer closes after all of this).
      await fanOut.stop();
      await sender.stop();
      await deliveries.stop();
      await deletions.stop();
    },
  };
}
