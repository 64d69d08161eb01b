// One delivery attempt of a claimed task, and what is recorded of it. The subscription is resolved
// now (deleted → the task is dropped silently: its deliveries went with it; stopped → the delivery
// is cancelled with a final record), the signing secret opened from the vault now, the request
// signed now (sendDelivery). Then, always recording BEFORE touching the schedule, so a kill at any
// point loses nothing (at-least-once; a repeated send carries the same Idempotency-Key):
//   success / failed (1xx, 3xx, 4xx, guard refusal) → final record, then the task is deleted;
//   retry (5xx, timeout, transport) → on the last allowed attempt a final `failed` record and the
//   task is deleted; otherwise a non-final record (status message "retrying") and the task is due
//   again after retryDelayMs (exponential, jitter).
import { readSecret, readWebhook, type WebhookRow } from '@llm/accounts-read';
import type { DeliveryData } from '@llm/contracts';
import type { Topics } from '@llm/events';
import type { Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import type { SecretsKeyring } from '@llm/oidc';
import type { OutboundClient } from '@llm/outbound';
import type { Pool } from '@llm/postgres';
import { openStoredSecret, stringValueOf } from '@llm/vault';
import { appendDeliveryRecord, isFinalAttempt, retryDelayMs, sendDelivery, type AttemptOutcome, type DeliveryRecord, type RetryPolicy } from '@llm/webhooks';
import { preparedOf } from '../schedule/stored-request.ts';
import type { scheduleStore, Task } from '../schedule/schedule-store.ts';

const outcomes = {
  success: counter('webhook_deliveries_succeeded_total', 'Webhook deliveries that ended in success (2xx).'),
  failed: counter('webhook_deliveries_failed_total', 'Webhook deliveries that ended in failure (4xx, refused URL, retries exhausted, cancelled).'),
  retried: counter('webhook_delivery_retries_scheduled_total', 'Webhook delivery attempts that will be retried (5xx, timeout, transport error).'),
  dropped: counter('webhook_deliveries_dropped_total', 'Scheduled webhook deliveries dropped because their subscription was deleted.'),
  unrecorded: counter('webhook_attempts_unrecorded_total', 'Webhook attempts whose outcome could not be recorded (Kafka or Postgres away); the attempt is repeated later.'),
};

export interface AttemptDeps {
  pool: Pool;
  producer: Producer;
  topics: Topics;
  log: Logger;
  keyring: SecretsKeyring;
  client: OutboundClient;
  policy: RetryPolicy;
  timeoutMs: number;
  owner: string;
  store: ReturnType<typeof scheduleStore>;
  /** How long an attempt that could not be recorded waits before it is made again. */
  unrecordedDelayMs?: number;
}

export async function attemptDelivery(d: AttemptDeps, task: Task): Promise<void> {
  try {
    await attempt(d, task);
  } catch (err) {
    // Postgres or Kafka away: nothing was recorded for this attempt, so it is made again later
    // (not counted). If even this fails, the lease running out brings the task back.
    outcomes.unrecorded();
    d.log.error({ err, delivery: task.deliveryId }, 'webhook attempt could not be completed; it will be made again');
    await d.store.reschedule(task.deliveryId, d.owner, task.attempts, d.unrecordedDelayMs ?? 5_000).catch(() => undefined);
  }
}

async function attempt(d: AttemptDeps, task: Task): Promise<void> {
  const sub = await readWebhook(d.pool, task.projectId, task.subscriptionId);
  if (!sub) {
    outcomes.dropped();
    await d.store.complete(task.deliveryId, d.owner);
    return;
  }
  const prepared = preparedOf(task.request);
  const base = { event_type: task.eventType, url: prepared.url, payload: prepared.payload } as DeliveryData;
  const now = (): string => new Date().toISOString();
  if (!sub.is_active) {
    await finish(d, task, { status: { timestamp: now(), message: 'failed' }, data: { ...base, error: 'The subscription was stopped before the delivery was sent; delivery cancelled.' } }, task.attempts);
    return;
  }
  const secret = await signingSecret(d, sub);
  if (secret === undefined) {
    await finish(d, task, { status: { timestamp: now(), message: 'failed' }, data: { ...base, error: "The subscription's secret cannot be resolved; delivery not sent." } }, task.attempts);
    return;
  }
  const outcome = await sendDelivery(d.client, prepared, { mode: sub.auth_mode === 'authorization' ? 'authorization' : 'signature', secret }, { timeoutMs: d.timeoutMs });
  const attempts = task.attempts + 1;
  if (outcome.kind !== 'retry' || isFinalAttempt(attempts, d.policy)) {
    await finish(d, task, recorded(outcome), attempts);
    return;
  }
  const delay = retryDelayMs(attempts, d.policy);
  await appendDeliveryRecord(d.producer, d.topics, record(task, { ...recorded(outcome), status: { ...outcome.status, message: 'retrying' } }, attempts, false));
  await d.store.reschedule(task.deliveryId, d.owner, attempts, delay);
  outcomes.retried();
  d.log.info({ delivery: task.deliveryId, attempts, code: outcome.status.code, retryInMs: delay }, 'webhook delivery will be retried');
}

type Recorded = Pick<DeliveryRecord, 'status' | 'data'>;

const recorded = (o: AttemptOutcome): Recorded => ({ status: o.status, data: o.data as DeliveryData });

function record(task: Task, r: Recorded, attempts: number, final: boolean): DeliveryRecord {
  return {
    deliveryId: task.deliveryId, projectId: task.projectId, subscriptionId: task.subscriptionId, eventId: task.eventId,
    status: r.status, ...(r.data && { data: { ...r.data, attempts } }), attempts, final,
  };
}

async function finish(d: AttemptDeps, task: Task, r: Recorded, attempts: number): Promise<void> {
  await appendDeliveryRecord(d.producer, d.topics, record(task, r, attempts, true));
  await d.store.complete(task.deliveryId, d.owner);
  (r.status.message === 'success' ? outcomes.success : outcomes.failed)();
}

/** The subscription's signing secret (or Authorization value), opened from the vault now; undefined when gone. */
async function signingSecret(d: AttemptDeps, sub: WebhookRow): Promise<string | undefined> {
  const row = await readSecret(d.pool, sub.project_id, sub.secret_id);
  if (!row) return undefined;
  const opened = await openStoredSecret(d.pool, d.keyring, row);
  const value = opened ? stringValueOf('webhook_provider', opened.data) : undefined;
  return value === '' ? undefined : value;
}
