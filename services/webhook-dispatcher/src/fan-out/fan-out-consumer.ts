// The fan-out: a consumer group of platform.events.v1. Each event goes to the active subscriptions
// of its project whose event types match (reference accounts §9.7), one delivery per (event,
// subscription) with the deterministic id deliveryIdOf(event, subscription). The request is built
// now (payload template resolved against the subscription as it is) and stored in the schedule
// (webhook_dispatch_tasks) in the same transaction as the consumed offsets: an event is scheduled
// exactly once, and nothing is sent here — the sender works the schedule, so a slow or dead receiver
// never holds up this consumer.
import { activeWebhooksFor, isUuid } from '@llm/accounts-read';
import { isEvent, type DecodedEvent, type Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import type { Pool, PoolClient } from '@llm/postgres';
import { deliveryIdOf, prepareDelivery } from '@llm/webhooks';
import { createLogConsumer } from '../log-consumer.ts';
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
  let n = 0;
  for (const s of await activeWebhooksFor(c, e.projectId, type)) {
    // A subscription receives the events that happen after it exists: a dispatcher catching up on
    // a backlog does not send a new subscription the events of before its creation.
    if (s.created_at.getTime() > occurredMs) continue;
    const deliveryId = deliveryIdOf(event.event_id, s.id);
    let request;
    try {
      request = prepareDelivery({ deliveryId, event, subscription: subscriptionForDelivery(s), projectId: s.project_id });
    } catch (err) {
      // Templates are checked when a subscription is written; an event this one cannot serve is
      // skipped for this subscription only.
      log.error({ err, subscription: s.id, event: event.event_id }, 'webhook request cannot be prepared; delivery skipped');
      continue;
    }
    const r = await c.query(
      `INSERT INTO webhook_dispatch_tasks (delivery_id, project_id, subscription_id, event_id, event_type, request)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb) ON CONFLICT (delivery_id) DO NOTHING`,
      [deliveryId, s.project_id, s.id, event.event_id, type, JSON.stringify(storedRequest(request))],
    );
    n += r.rowCount ?? 0;
  }
  return n;
}

