// The test delivery (reference accounts §9.5): one `webhooks.subscriptions.tested` event sent
// synchronously to a subscription (stored, or a draft) through the outbound guard, one attempt.
// For a stored subscription the delivery is recorded like any other (webhooks.deliveries.v1, final,
// waited for: the caller reads its own write) and the event enters the project's events log
// (platform.events.v1; the dispatcher does not fan these out again). A draft without an id
// persists nothing. A payload over the size budget is not sent: the delivery is failed, code
// "400", error "payload too large: …" (recorded the same way for a stored subscription).
import { randomUUID } from 'node:crypto';
import type { WebhookDeliveryView } from '@llm/contracts';
import { encodeEvent, uuidv7, type Topics } from '@llm/events';
import type { Producer } from '@llm/kafka';
import type { OutboundClient } from '@llm/outbound';
import type { Pool } from '@llm/postgres';
import { parseUuid } from '@llm/account-model';
import {
  appendDeliveryRecord, awaitDeliveryRecord, deliveryIdOf, isPayloadTooLarge, prepareDelivery, sendDelivery, unsentOutcome,
  type AttemptOutcome, type PrepareDeliveryInput, type SubscriptionForDelivery, type WebhookEventFact,
} from '@llm/webhooks';

export const TESTED_EVENT_TYPE = 'webhooks.subscriptions.tested';
/** The subscription id a draft's delivery answers with (§9.5). */
export const DRAFT_SUBSCRIPTION_ID = '00000000-0000-0000-0000-000000000000';

export interface TestDeliveryDeps {
  pool: Pool;
  outbound: OutboundClient;
  producer: Producer;
  topics: Topics;
  timeoutMs: number;
}

export interface TestTarget {
  /** The stored subscription's id, or undefined for a draft without id (nothing is persisted). */
  storedId?: string;
  subscription: Omit<SubscriptionForDelivery, 'id'>;
  secret: string;
}

export interface Caller { projectId: string; organizationId: string; userId: string; requestId: string }

export async function testDelivery(deps: TestDeliveryDeps, caller: Caller, target: TestTarget): Promise<WebhookDeliveryView> {
  const now = new Date();
  const event: WebhookEventFact = {
    event_id: uuidv7(now.getTime()), event_type: TESTED_EVENT_TYPE, timestamp: now.toISOString(), created_at: now.toISOString(),
    attributes: { subscription_id: target.storedId ?? 'draft' },
  };
  const subscriptionId = target.storedId ?? DRAFT_SUBSCRIPTION_ID;
  const deliveryId = deliveryIdOf(event.event_id, subscriptionId);
  const input: PrepareDeliveryInput = { deliveryId, event, subscription: { ...target.subscription, id: target.storedId ?? 'draft' }, projectId: caller.projectId };
  const outcome = await send(deps, input, target);
  // One attempt only: a transient failure is this test's final answer.
  const status = { ...outcome.status, message: outcome.kind === 'success' ? 'success' as const : 'failed' as const };
  if (target.storedId !== undefined) await persist(deps, caller, { deliveryId, subscriptionId, event, status, data: outcome.data });
  return {
    id: deliveryId, created_at: now.toISOString(), status, data: outcome.data, subscription_id: subscriptionId, event_id: event.event_id,
  };
}

async function send(deps: TestDeliveryDeps, input: PrepareDeliveryInput, target: TestTarget): Promise<AttemptOutcome> {
  let prepared;
  try {
    prepared = prepareDelivery(input);
  } catch (err) {
    if (isPayloadTooLarge(err)) return unsentOutcome(input, err);
    throw err;
  }
  return sendDelivery(deps.outbound, prepared, { mode: target.subscription.auth_mode, secret: target.secret }, { timeoutMs: deps.timeoutMs });
}

interface Delivered { deliveryId: string; subscriptionId: string; event: WebhookEventFact; status: AttemptOutcome['status']; data: AttemptOutcome['data'] }

async function persist(deps: TestDeliveryDeps, caller: Caller, d: Delivered): Promise<void> {
  const meta = { requestId: caller.requestId, actorId: caller.userId };
  const recordId = await appendDeliveryRecord(deps.producer, deps.topics, {
    deliveryId: d.deliveryId, projectId: caller.projectId, subscriptionId: d.subscriptionId, eventId: d.event.event_id,
    status: d.status, data: { ...d.data, attempts: 1 }, attempts: 1, final: true,
  }, meta);
  // The events log: the same event id, attributes as the reference's (user and subscription).
  const value = encodeEvent('platform.event.recorded', {
    event_type: TESTED_EVENT_TYPE, request_type: 'unknown', status_code: '', status_message: '',
    attributes_json: JSON.stringify({ user_id: caller.userId, subscription_id: d.subscriptionId }), user_id: caller.userId,
  }, {
    eventId: d.event.event_id, projectId: caller.projectId, organizationId: caller.organizationId,
    timeUs: Date.parse(d.event.timestamp) * 1000, requestId: parseUuid(caller.requestId) ?? randomUUID(), actorId: caller.userId,
  });
  await deps.producer.send(deps.topics.platform, [{ key: caller.projectId, value }]);
  await awaitDeliveryRecord(deps.pool, recordId);
}
