// The dispatcher's own reading of the accounts topic: a consumer group of accounts.events.v1 that
// applies `accounts.webhook.deleted` to the dispatcher's tables — the subscription's deliveries
// leave webhook_deliveries and its id enters webhook_deleted_subscriptions, in the same
// transaction as the consumed offsets. The cascade reaches the dispatcher as an event: no other
// service writes its tables.
//
// Every deletion in the log is applied, whether or not projector-accounts accepted it: the webhook
// aggregate refuses a deletion only when the subscription is not in that project
// (webhook_not_found), and then no delivery of that pair can exist (a delivery is recorded only
// for a subscription of its project) — applying it removes nothing. Everything else on the topic
// is projector-accounts' business, including what cannot be decoded (it records the rejection).
import { decodeEvent, isEvent, type DecodedEvent, type Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import type { Pool, PoolClient } from '@llm/postgres';
import { createLogConsumer, type LogConsumer, type RecordVerdict } from '@llm/pg-consumer';
import { isUuid } from '@llm/account-model';
import { lockForDeletion } from './deletion-lock.ts';

export interface SubscriptionDeletionsDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  consumerName: string;
}

/** One accounts record: a subscription's deletion is applied, every other record is not the dispatcher's. */
export async function applyAccountsRecord(c: PoolClient, e: DecodedEvent | null): Promise<RecordVerdict> {
  if (!e || !isEvent(e, 'accounts.webhook.deleted')) return { ok: true };
  const p = e.payload;
  if (!isUuid(p.subscription_id) || !isUuid(p.project_id)) return { ok: true };
  // Exclusive against the deliveries projector (deletion-lock.ts): the DELETE below sees every
  // delivery of the subscription committed so far, and no record is applied until the tombstone is.
  await lockForDeletion(c);
  await c.query(
    'INSERT INTO webhook_deleted_subscriptions (subscription_id, project_id, deleted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [p.subscription_id, p.project_id, new Date(Math.floor(e.timeUs / 1000))],
  );
  await c.query('DELETE FROM webhook_deliveries WHERE subscription_id = $1 AND project_id = $2', [p.subscription_id, p.project_id]);
  return { ok: true };
}

export function createSubscriptionDeletions(deps: SubscriptionDeletionsDeps): LogConsumer {
  return createLogConsumer<DecodedEvent | null>({
    ...deps, log: deps.log.child({ component: 'webhook-subscription-deletions' }), topic: deps.topics.accounts, metricsPrefix: 'webhook_subscription_deletions',
    // Undecodable accounts records are projector-accounts' to reject and record, not dead-lettered twice.
    decode: (value) => { const r = decodeEvent(value); return r.ok ? r : { ok: true, value: null }; },
    apply: (c, e) => applyAccountsRecord(c, e),
  });
}
