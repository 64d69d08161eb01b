// The one way a delivery's state is recorded: a `webhooks.delivery.recorded` record on
// webhooks.deliveries.v1 (keyed by subscription id), projected into webhook_deliveries by the
// dispatcher's deliveries projector. Writers that answer a client (test delivery, POST
// /webhooks/deliveries) wait until the projection holds their record (read-your-writes).
//
// A record must fit its topic (messages are capped at 8 MiB) whatever it carries: `data.payload`
// can be up to 1 MiB of canonical JSON (more as JSON.stringify of a large client-recorded one),
// the response body and error come from the receiver. So `data_json` is kept within
// RECORD_DATA_MAX_BYTES (256 KiB): over it, the payload is left out (`payload_truncated: true`
// and its size as `payload_bytes` say so); still over it, the texts are cut to
// SHORT_TEXT_CHARS and the headers left out (`truncated: true`). The delivery's status and
// outcome are always recorded.
import { randomUUID } from 'node:crypto';
import type { DeliveryData, DeliveryStatus } from '@llm/contracts';
import { sleep, unavailable } from '@llm/errors';
import { encodeEvent, type Topics } from '@llm/events';
import type { Producer } from '@llm/kafka';
import type { Pool } from '@llm/postgres';

export interface DeliveryRecord {
  deliveryId: string;
  projectId: string;
  subscriptionId: string;
  eventId: string;
  status: DeliveryStatus & { timestamp: string };
  data?: DeliveryData & { attempts?: number };
  /** Attempts made so far (0 = recorded by a client). */
  attempts: number;
  /** No further attempt will be made. */
  final: boolean;
}

/** Appends the record (acks=all); resolves with the record's own id once Kafka acknowledged it. */
export async function appendDeliveryRecord(producer: Producer, topics: Topics, r: DeliveryRecord, meta: { requestId?: string; actorId?: string } = {}): Promise<string> {
  const recordId = randomUUID();
  const value = encodeEvent('webhooks.delivery.recorded', {
    delivery_id: r.deliveryId, project_id: r.projectId, subscription_id: r.subscriptionId, event_id: r.eventId,
    status_json: JSON.stringify(r.status), data_json: r.data === undefined ? '' : recordDataJson(r.data), attempts: r.attempts, final: r.final,
  }, { eventId: recordId, projectId: r.projectId, aggregateId: `delivery:${r.deliveryId}`, ...(meta.requestId && { requestId: meta.requestId }), ...(meta.actorId && { actorId: meta.actorId }) });
  await producer.send(topics.deliveries, [{ key: r.subscriptionId, value }]);
  return recordId;
}

/** The most UTF-8 bytes a record's `data_json` takes (see the header). */
export const RECORD_DATA_MAX_BYTES = 256 * 1024;
/** What the texts of an oversized record are cut to (the response body excerpt's size). */
const SHORT_TEXT_CHARS = 2000;

/** `data` as the record's JSON text, within `maxBytes` (payload left out first, then the rest cut). */
export function recordDataJson(data: NonNullable<DeliveryRecord['data']>, maxBytes: number = RECORD_DATA_MAX_BYTES): string {
  const full = JSON.stringify(data);
  if (Buffer.byteLength(full) <= maxBytes) return full;
  const { payload, ...rest } = data;
  const payloadJson = payload === undefined ? undefined : JSON.stringify(payload);
  const withoutPayload = JSON.stringify({
    ...rest, ...(payloadJson !== undefined && { payload_truncated: true, payload_bytes: Buffer.byteLength(payloadJson) }),
  });
  if (Buffer.byteLength(withoutPayload) <= maxBytes) return withoutPayload;
  const cut = (t: string | null | undefined): string | undefined => (typeof t === 'string' ? t.slice(0, SHORT_TEXT_CHARS) : undefined);
  const response = data.response ? { status_code: data.response.status_code, body: cut(data.response.body) } : undefined;
  return JSON.stringify({
    event_type: cut(data.event_type), url: cut(data.url), response, error: cut(data.error), attempts: data.attempts,
    ...(payloadJson !== undefined && { payload_truncated: true, payload_bytes: Buffer.byteLength(payloadJson) }), truncated: true,
  });
}

/**
 * Waits until the deliveries projection applied this record (webhook_delivery_records holds the ids
 * of the records applied); answers 503 `projection_lag` after `timeoutMs`.
 */
export async function awaitDeliveryRecord(pool: Pool, recordId: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; Date.now() < deadline; i++) {
    const r = await pool.query<{ applied: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM webhook_delivery_records WHERE record_id = $1::uuid) AS applied`, [recordId],
    );
    if (r.rows[0]?.applied) return;
    await sleep(Math.min(5 * 2 ** i, 50));
  }
  throw unavailable('projection_lag', 'The delivery was recorded but is not visible yet; retry the read shortly.');
}
