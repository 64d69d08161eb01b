// One delivery attempt of a claimed task, and what is recorded of it. The subscription is resolved
// now (deleted → the task is dropped silently: its deliveries went with it; stopped → the delivery
// is cancelled with a final record), the request rebuilt from the current subscription if it
// changed since fan-out (a new secret is never sent to the URL it replaced), the signing secret
// opened from the vault now, the request signed now (sendDelivery). Then, always recording BEFORE
// touching the schedule, so a kill at any point loses nothing (at-least-once; a repeated send
// carries the same Idempotency-Key):
//   success / failed (1xx, 3xx, 4xx, guard refusal) → final record, then the task is deleted;
//   retry (5xx, timeout, transport) → on the last allowed attempt a final `failed` record and the
//   task is deleted; otherwise a non-final record (status message "retrying") and the task is due
//   again after retryDelayMs (exponential, jitter).
// A try that records nothing (the record cannot be appended, the secret cannot be opened, Postgres
// goes away) is a stall: counted on the task and tried again with backoff; after `stallLimit` of
// them the delivery is not sent again but ended with a small final `failed` record (code "0", the
// last reason, no payload). If even that record cannot be appended, only the record is retried,
// with backoff, never the send. A task that fan-out could not prepare (`failure`) is ended the
// same way, with its own code and reason. Status codes of records made without a response:
// "0" (nothing sent: stopped, secret unavailable, stalled, timeout/transport), "400" (request
// refused before sending: payload too large, blocked URL).
import { readSecret, readWebhook, type WebhookRow } from '@llm/account-model';
import type { DeliveryData } from '@llm/contracts';
import type { Topics } from '@llm/events';
import type { Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import type { SecretsKeyring } from '@llm/oidc';
import type { OutboundClient } from '@llm/outbound';
import type { Pool } from '@llm/postgres';
import { openStoredSecret, stringValueOf } from '@llm/vault';
import {
  appendDeliveryRecord, isFinalAttempt, isPayloadTooLarge, prepareDelivery, retryDelayMs, sendDelivery,
  type AttemptOutcome, type DeliveryRecord, type PreparedDelivery, type RetryPolicy,
} from '@llm/webhooks';
import { subscriptionForDelivery } from '../fan-out/webhook-event.ts';
import { preparedOf } from '../schedule/stored-request.ts';
import type { scheduleStore, Task } from '../schedule/schedule-store.ts';

const outcomes = {
  success: counter('webhook_deliveries_succeeded_total', 'Webhook deliveries that ended in success (2xx).'),
  failed: counter('webhook_deliveries_failed_total', 'Webhook deliveries that ended in failure (4xx, refused URL, payload too large, retries exhausted, stalled, cancelled).'),
  retried: counter('webhook_delivery_retries_scheduled_total', 'Webhook delivery attempts that will be retried (5xx, timeout, transport error).'),
  dropped: counter('webhook_deliveries_dropped_total', 'Scheduled webhook deliveries dropped because their subscription was deleted.'),
  unrecorded: counter('webhook_attempts_unrecorded_total', 'Webhook delivery tries that recorded nothing (record not appended, signing secret unavailable, Postgres away); tried again with backoff, a bounded number of times.'),
};

/** Stalls after which a delivery is ended as failed rather than tried again. */
export const STALL_LIMIT = 5;
/** The wait after the first stall; each further one doubles it, up to STALL_MAX_DELAY_MS. */
export const STALL_DELAY_MS = 5_000;
const STALL_MAX_DELAY_MS = 300_000;
export const SECRET_UNAVAILABLE = 'signing secret unavailable';
export const SUBSCRIPTION_STOPPED = 'subscription stopped';

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
  /** The claims' lease (renewed before recording when less than half of it is left). */
  leaseMs: number;
  /** Stalls before a delivery is ended (default STALL_LIMIT). */
  stallLimit?: number;
  /** The wait after the first stall (default STALL_DELAY_MS). */
  stallDelayMs?: number;
}

/** The signing secret is missing or cannot be opened (a stall: the vault may be catching up). */
class SecretUnavailableError extends Error {
  constructor(cause?: unknown) { super(SECRET_UNAVAILABLE, { cause }); }
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message || err.name : String(err));

export async function attemptDelivery(d: AttemptDeps, task: Task): Promise<void> {
  const limit = d.stallLimit ?? STALL_LIMIT;
  if (task.failure || task.stalls >= limit) {
    await end(d, task);
    return;
  }
  try {
    await attempt(d, task);
  } catch (err) {
    // Nothing was recorded for this try: counted, and made again later with backoff; the limit
    // reached, the next claim ends the delivery (end()).
    const stalls = task.stalls + 1;
    const reason = err instanceof SecretUnavailableError ? SECRET_UNAVAILABLE : `the attempt could not be completed or recorded: ${messageOf(err)}`;
    outcomes.unrecorded();
    d.log.error({ err, delivery: task.deliveryId, stalls, limit }, stalls >= limit ? 'webhook delivery stalled too often; it ends as failed' : 'webhook attempt recorded nothing; it will be made again');
    await d.store.stall(task.deliveryId, d.owner, stalls, reason, stalls >= limit ? 0 : stallDelay(d, stalls)).catch(() => undefined);
  }
}

const stallDelay = (d: AttemptDeps, stalls: number): number =>
  Math.min(STALL_MAX_DELAY_MS, (d.stallDelayMs ?? STALL_DELAY_MS) * 2 ** Math.min(Math.max(0, stalls - 1), 20));

const now = (): string => new Date().toISOString();

/** Ends a delivery that will not be sent (stalled too often, or unpreparable at fan-out) with a small final record. */
async function end(d: AttemptDeps, task: Task): Promise<void> {
  const failure = task.failure ?? { code: '0', error: task.lastError ?? 'the delivery could not be attempted', url: task.request?.url ?? '' };
  try {
    if (!await readWebhook(d.pool, task.projectId, task.subscriptionId)) {
      outcomes.dropped();
      await d.store.complete(task.deliveryId, d.owner);
      return;
    }
    await finish(d, task, { status: { timestamp: now(), code: failure.code, message: 'failed' }, data: { event_type: task.eventType, url: failure.url, error: failure.error } as DeliveryData }, task.attempts);
  } catch (err) {
    // Only the record is tried again (never the send), with backoff.
    const stalls = task.stalls + 1;
    outcomes.unrecorded();
    d.log.error({ err, delivery: task.deliveryId, stalls }, 'the final record of a webhook delivery could not be appended; it will be tried again');
    await d.store.stall(task.deliveryId, d.owner, stalls, task.lastError ?? failure.error, stallDelay(d, stalls)).catch(() => undefined);
  }
}

async function attempt(d: AttemptDeps, task: Task): Promise<void> {
  const sub = await readWebhook(d.pool, task.projectId, task.subscriptionId);
  if (!sub) {
    outcomes.dropped();
    await d.store.complete(task.deliveryId, d.owner);
    return;
  }
  if (!sub.is_active) {
    await finish(d, task, { status: { timestamp: now(), code: '0', message: 'failed' }, data: { event_type: task.eventType, url: sub.url, error: SUBSCRIPTION_STOPPED } as DeliveryData }, task.attempts);
    return;
  }
  const request = currentRequest(task, sub);
  if ('failure' in request) {
    await finish(d, task, { status: { timestamp: now(), code: request.code, message: 'failed' }, data: { event_type: task.eventType, url: sub.url, error: request.failure } as DeliveryData }, task.attempts);
    return;
  }
  const secret = await signingSecret(d, sub);
  const outcome = await sendDelivery(d.client, request, { mode: sub.auth_mode === 'authorization' ? 'authorization' : 'signature', secret }, { timeoutMs: d.timeoutMs });
  const attempts = task.attempts + 1;
  if (outcome.kind !== 'retry' || isFinalAttempt(attempts, d.policy)) {
    await finish(d, task, recorded(outcome), attempts);
    return;
  }
  const delay = retryDelayMs(attempts, d.policy);
  await append(d, task, record(task, { ...recorded(outcome), status: { ...outcome.status, message: 'retrying' } }, attempts, false));
  await d.store.reschedule(task.deliveryId, d.owner, attempts, delay);
  outcomes.retried();
  d.log.info({ delivery: task.deliveryId, attempts, code: outcome.status.code, retryInMs: delay }, 'webhook delivery will be retried');
}

/**
 * The request to send: the one prepared at fan-out while the subscription is the version it was
 * built from; otherwise rebuilt from the current row (URL, headers, payload template; same delivery
 * id and Idempotency-Key). A task scheduled before versions were kept is sent as stored only to the
 * URL it was built for.
 */
function currentRequest(task: Task, sub: WebhookRow): PreparedDelivery | { failure: string; code: string } {
  if (task.request && task.subscriptionVersion === sub.version) return preparedOf(task.request);
  if (!task.event) {
    return task.request && task.request.url === sub.url
      ? preparedOf(task.request)
      : { failure: 'the subscription changed before the delivery was sent and its request cannot be rebuilt', code: '0' };
  }
  try {
    return prepareDelivery({ deliveryId: task.deliveryId, event: task.event, subscription: subscriptionForDelivery(sub), projectId: sub.project_id });
  } catch (err) {
    return { failure: isPayloadTooLarge(err) ? err.message : `the request cannot be prepared: ${messageOf(err)}`, code: isPayloadTooLarge(err) ? err.code : '400' };
  }
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
  await append(d, task, record(task, r, attempts, true));
  await d.store.complete(task.deliveryId, d.owner);
  (r.status.message === 'success' ? outcomes.success : outcomes.failed)();
}

/**
 * Appends a record while the lease surely holds: renewed first when less than half of it is left,
 * and the append given up (a stall) before the lease could run out, so another replica never
 * claims a delivery whose outcome this one is still recording.
 */
async function append(d: AttemptDeps, task: Task, rec: DeliveryRecord): Promise<void> {
  if (task.leaseDeadline - Date.now() < d.leaseMs / 2) {
    const at = Date.now();
    if (await d.store.renew(task.deliveryId, d.owner, d.leaseMs)) task.leaseDeadline = at + d.leaseMs;
    else d.log.warn({ delivery: task.deliveryId }, 'the lease of a webhook delivery ran out and was taken; recording this attempt anyway');
  }
  const budget = Math.max(1_000, task.leaseDeadline - Date.now() - 2_000);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      appendDeliveryRecord(d.producer, d.topics, rec),
      new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`the record was not acknowledged within ${budget} ms`)), budget); }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The subscription's signing secret (or Authorization value), opened from the vault now. */
async function signingSecret(d: AttemptDeps, sub: WebhookRow): Promise<string> {
  const row = await readSecret(d.pool, sub.project_id, sub.secret_id);
  if (!row) throw new SecretUnavailableError();
  let value: string | undefined;
  try {
    const opened = await openStoredSecret(d.pool, d.keyring, row);
    value = opened ? stringValueOf('webhook_provider', opened.data) : undefined;
  } catch (err) {
    throw new SecretUnavailableError(err);
  }
  if (value === undefined || value === '') throw new SecretUnavailableError();
  return value;
}
