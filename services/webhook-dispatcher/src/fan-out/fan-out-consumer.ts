// The fan-out: a consumer group of platform.events.v1. Each event goes to the active subscriptions
// of its project whose event types match (reference accounts §9.7), one delivery per (event,
// subscription) with the deterministic id deliveryIdOf(event, subscription). The request is built
// now (payload template resolved against the subscription as it is; the subscription's version and
// the event are kept too, so the sender can rebuild it if the subscription changes before it is
// sent) and stored in the schedule (webhook_dispatch_tasks) in the same transaction as the
// consumed offsets: an event is scheduled exactly once, and nothing is sent here — the sender works
// the schedule, so a slow or dead receiver never holds up this consumer. A pair already in
// webhook_deliveries is not scheduled again (an event published twice is delivered once), and a
// request that cannot be prepared or stored is scheduled as a failure the sender records.
import { activeWebhooksFor, isUuid } from '@llm/account-model';
import { isEvent, type DecodedEvent, type Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import type { Pool, PoolClient } from '@llm/postgres';
import { deliveryIdOf, isPayloadTooLarge, prepareDelivery } from '@llm/webhooks';
import { createLogConsumer } from '@llm/pg-consumer';
import type { TaskFailure } from '../schedule/schedule-store.ts';
import { storedRequest } from '../schedule/stored-request.ts';
import { subscriptionForDelivery, webhookEventOf } from './webhook-event.ts';

const scheduled = counter('webhook_fanout_deliveries_scheduled_total', 'Webhook deliveries scheduled by the fan-out (one per event and matching subscription).');

/**
 * Delivered synchronously by POST /webhooks/subscriptions/test (§9.5), which records its own
 * delivery: fanning it out again would send the test twice.
 */
const NOT_FANNED_OUT = new Set(['webhooks.subscriptions.tested']);

export interface FanOutDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  consumerName: string;
  /** A batch scheduled deliveries: the sender should look now. */
  onScheduled(): void;
}

export function createFanOut(deps: FanOutDeps): { start(): Promise<void>; stop(): Promise<void> } {
  const log = deps.log.child({ component: 'webhook-fan-out' });
  let pending = false;
  return createLogConsumer({
    ...deps, log, topic: deps.topics.platform, metricsPrefix: 'webhook_fanout',
    apply: async (c, e) => {
      if (!isUuid(e.eventId) || (e.projectId && !isUuid(e.projectId))) return { ok: false, error: `event '${e.eventId}' of project '${e.projectId}': ids are not UUIDs` };
      const n = await fanOut(c, e, log);
      if (n > 0) { pending = true; scheduled(n); }
      return { ok: true };
    },
    afterCommit: () => { if (pending) { pending = false; deps.onScheduled(); } },
  });
}

/** Schedules the deliveries of one event; returns how many were new. */
export async function fanOut(c: PoolClient, e: DecodedEvent, log: Logger): Promise<number> {
  if (!isEvent(e, 'platform.event.recorded')) return 0;
  const type = e.payload.event_type;
  if (NOT_FANNED_OUT.has(type) || !e.projectId) return 0;
  const event = webhookEventOf(e);
  const occurredMs = Math.floor(e.timeUs / 1000);
  // A subscription receives the events that happen after it exists: a dispatcher catching up on
  // a backlog does not send a new subscription the events of before its creation.
  const subs = (await activeWebhooksFor(c, e.projectId, type)).filter((s) => s.created_at.getTime() <= occurredMs);
  if (subs.length === 0) return 0;
  // An event published again (a replay of the accounts log, a duplicate outbox publish) finds its
  // deliveries already recorded: the schedule forgets a delivery once it ended, the deliveries do
  // not (one query for all the event's subscriptions).
  const done = new Set((await c.query<{ subscription_id: string }>(
    `SELECT subscription_id::text AS subscription_id FROM webhook_deliveries
      WHERE project_id = $1::uuid AND event_id = $2::uuid AND subscription_id = ANY($3::uuid[])`,
    [e.projectId, event.event_id, subs.map((s) => s.id)],
  )).rows.map((r) => r.subscription_id));
  let n = 0;
  for (const s of subs) {
    if (done.has(s.id)) continue;
    const deliveryId = deliveryIdOf(event.event_id, s.id);
    const task = [deliveryId, s.project_id, s.id, event.event_id, type, s.version, JSON.stringify(event)];
    // One subscription's problem (a payload over the limit, a request that cannot be stored) ends
    // that delivery as failed — the sender records it — and never holds up or dead-letters the event.
    let failure: TaskFailure | undefined;
    await c.query('SAVEPOINT fan_out_delivery');
    try {
      const request = JSON.stringify(storedRequest(prepareDelivery({ deliveryId, event, subscription: subscriptionForDelivery(s), projectId: s.project_id })));
      const r = await c.query(
        `INSERT INTO webhook_dispatch_tasks (delivery_id, project_id, subscription_id, event_id, event_type, subscription_version, event, request)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) ON CONFLICT (delivery_id) DO NOTHING`,
        [...task, request],
      );
      n += r.rowCount ?? 0;
      await c.query('RELEASE SAVEPOINT fan_out_delivery');
    } catch (err) {
      await c.query('ROLLBACK TO SAVEPOINT fan_out_delivery');
      const error = isPayloadTooLarge(err) ? err.message : `the request cannot be prepared: ${err instanceof Error ? err.message : String(err)}`;
      failure = { code: isPayloadTooLarge(err) ? err.code : '400', error: error.slice(0, 2000), url: s.url };
      log.warn({ err, subscription: s.id, event: event.event_id }, 'webhook request cannot be prepared; the delivery ends as failed');
    }
    if (failure) {
      const r = await c.query(
        `INSERT INTO webhook_dispatch_tasks (delivery_id, project_id, subscription_id, event_id, event_type, subscription_version, event, failure)
         VALUES ($1, $2, $3, $4, $5, $6, NULL, $7::jsonb) ON CONFLICT (delivery_id) DO NOTHING`,
        [...task.slice(0, 6), JSON.stringify(failure)],
      );
      n += r.rowCount ?? 0;
    }
  }
  return n;
}
