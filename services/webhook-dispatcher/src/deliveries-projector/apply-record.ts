// One `webhooks.delivery.recorded` record into webhook_deliveries (created by 0011-webhooks.sql,
// written only by the dispatcher: here, and subscription-deletions/ on a deletion): upsert on (project, subscription, event) keeping the row's first id and created_at, taking
// status, data, attempts, final and the record id from the record; a new pair whose record names
// an id another pair already has gets a fresh id. The record id goes into
// webhook_delivery_records whatever happens, so a writer waiting for it is released (and a record
// applied before is skipped). A record for a subscription the dispatcher saw deleted
// (webhook_deleted_subscriptions) is not applied: the deletion removed its deliveries, and a late
// record must not bring one back, whichever of the two is applied first (the two consumers
// serialize on deletion-lock.ts). Nothing else is asked of the subscription — in particular not
// that projector-accounts has projected it yet — so a rebuild that reads the deliveries topic
// before the accounts topic loses nothing. A draft's test delivery (the nil subscription id,
// reference §9.5) is never projected: it is answered, not kept.
import { isUuid } from '@llm/account-model';
import { isEvent, type DecodedEvent } from '@llm/events';
import type { PoolClient } from '@llm/postgres';
import type { RecordVerdict } from '@llm/pg-consumer';
import { lockAgainstDeletions } from '../subscription-deletions/deletion-lock.ts';

/** The subscription id of a draft's test delivery (the command's POST /webhooks/subscriptions/test). */
const DRAFT_SUBSCRIPTION_ID = '00000000-0000-0000-0000-000000000000';

const parseObject = (json: string): Record<string, unknown> | null | undefined => {
  if (json === '') return null;
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
};

export async function applyDeliveryRecord(c: PoolClient, e: DecodedEvent): Promise<RecordVerdict> {
  if (!isEvent(e, 'webhooks.delivery.recorded')) return { ok: false, error: `unexpected event type '${e.type}' on the deliveries topic` };
  const p = e.payload;
  const ids = [e.eventId, p.delivery_id, p.project_id, p.subscription_id, p.event_id];
  if (!ids.every((x) => isUuid(x))) return { ok: false, error: 'a delivery record whose ids are not UUIDs' };
  const status = parseObject(p.status_json);
  const data = parseObject(p.data_json);
  if (!status || data === undefined) return { ok: false, error: 'a delivery record whose status or data is not a JSON object' };

  // Serialized with the deletions (deletion-lock.ts), before the batch's first write so that a
  // transaction waiting here holds no row a deletion could wait for: the tombstone read below is the
  // committed one, and a deletion committing later sees this delivery and removes it.
  await lockAgainstDeletions(c);
  const seen = await c.query('INSERT INTO webhook_delivery_records (record_id, delivery_id) VALUES ($1, $2) ON CONFLICT (record_id) DO NOTHING', [e.eventId, p.delivery_id]);
  if (seen.rowCount === 0) return { ok: true };
  if (p.subscription_id === DRAFT_SUBSCRIPTION_ID) return { ok: true };
  const deleted = await c.query('SELECT 1 FROM webhook_deleted_subscriptions WHERE subscription_id = $1 AND project_id = $2', [p.subscription_id, p.project_id]);
  if ((deleted.rowCount ?? 0) > 0) return { ok: true };

  const at = new Date(Math.floor(e.timeUs / 1000));
  // The record's id may already belong to ANOTHER pair: a client's POST /webhooks/deliveries may
  // have chosen any id, including one the dispatcher derives later for another (event,
  // subscription). A new pair then takes a fresh id (the primary key would refuse the record and
  // its outcome would be lost to the dead-letter topic): the record's own id, so a rebuild gives
  // the same one; a known pair keeps its own id anyway.
  const taken = await c.query<{ mine: boolean }>(
    'SELECT (project_id = $2 AND subscription_id = $3 AND event_id = $4) AS mine FROM webhook_deliveries WHERE id = $1',
    [p.delivery_id, p.project_id, p.subscription_id, p.event_id],
  );
  const id = taken.rows[0] && !taken.rows[0].mine ? e.eventId : p.delivery_id;
  await c.query(
    `INSERT INTO webhook_deliveries AS d (id, project_id, subscription_id, event_id, status, data, attempts, final, created_at, updated_at, last_record_id)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $9, $10)
     ON CONFLICT (project_id, subscription_id, event_id) DO UPDATE
       SET status = EXCLUDED.status, data = EXCLUDED.data, attempts = EXCLUDED.attempts, final = EXCLUDED.final,
           updated_at = EXCLUDED.updated_at, last_record_id = EXCLUDED.last_record_id
     -- A stale non-final record (a duplicate attempt of a replica whose lease ran out) never
     -- overwrites a final outcome with at least as many attempts.
     WHERE NOT (d.final AND NOT EXCLUDED.final AND d.attempts >= EXCLUDED.attempts)`,
    [id, p.project_id, p.subscription_id, p.event_id, JSON.stringify(status), data === null ? null : JSON.stringify(data), p.attempts, p.final, at, e.eventId],
  );
  return { ok: true };
}
