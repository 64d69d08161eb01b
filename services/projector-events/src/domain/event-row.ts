// One platform.events.v1 record → one row of the events table (migrations/0001-platform-events.sql).
// Pure and deterministic (a replay of the topic yields the same rows): ids canonical lower case, a
// request id that is not a UUID mapped to a UUIDv5 of itself, `attributes` a JSON object that always
// holds `user_id`. A record that cannot be a row is an error value (the consumer dead-letters it).
import { uuidv5, NAMESPACE_DNS, type DecodedEvent } from '@llm/events';
import type { Result } from '@llm/errors';

export interface PlatformEventRow {
  project_id: string;
  /** ClickHouse DateTime64(6) text, UTC. */
  timestamp: string;
  event_id: string;
  request_id: string;
  request_type: string;
  event_type: string;
  status_code: string;
  status_message: string;
  /** JSON text of an object. */
  attributes: string;
  created_at: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REQUEST_TYPES = new Set(['unknown', 'router', 'worker']);
const REQUESTS = uuidv5('requests.llm-backend', NAMESPACE_DNS);
/** DateTime64 bounds ClickHouse accepts (1900-01-01 .. 2299-12-31). */
const MIN_US = Date.UTC(1900, 0, 1) * 1000;
const MAX_US = Date.UTC(2299, 11, 31, 23, 59, 59) * 1000;
const MAX_TYPE_CHARS = 200;

/** Unix microseconds as ClickHouse DateTime64(6) text ("YYYY-MM-DD hh:mm:ss.ffffff", UTC). */
export function chTime(us: number): string {
  const ms = Math.floor(us / 1000);
  const frac = String(((us % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0');
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}.${frac}`;
}

/** The row of a decoded record; `appendedMs` is the record's log time (the row's created_at). */
export function platformEventRow(e: DecodedEvent, appendedMs: number): Result<PlatformEventRow> {
  if (e.type !== 'platform.event.recorded') return { ok: false, error: `event type '${e.type}' does not belong on the platform topic` };
  const p = (e as DecodedEvent<'platform.event.recorded'>).payload;
  if (!UUID.test(e.projectId)) return { ok: false, error: 'event has no project id' };
  if (!UUID.test(e.eventId)) return { ok: false, error: 'event id is not a UUID' };
  if (!p.event_type || p.event_type.length > MAX_TYPE_CHARS) return { ok: false, error: 'event has no event type (or one too long)' };
  if (!Number.isSafeInteger(e.timeUs) || e.timeUs < MIN_US || e.timeUs > MAX_US) return { ok: false, error: `event time ${e.timeUs} is out of range` };
  let attributes: Record<string, unknown>;
  try {
    const parsed: unknown = p.attributes_json ? JSON.parse(p.attributes_json) : {};
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, error: 'attributes are not a JSON object' };
    attributes = parsed as Record<string, unknown>;
  } catch {
    return { ok: false, error: 'attributes are not valid JSON' };
  }
  if (!('user_id' in attributes)) attributes = { user_id: p.user_id || null, ...attributes };
  const eventId = e.eventId.toLowerCase();
  const requestId = UUID.test(e.requestId) ? e.requestId.toLowerCase() : uuidv5(e.requestId || `event:${eventId}`, REQUESTS);
  return {
    ok: true,
    value: {
      project_id: e.projectId.toLowerCase(),
      timestamp: chTime(e.timeUs),
      event_id: eventId,
      request_id: requestId,
      request_type: REQUEST_TYPES.has(p.request_type) ? p.request_type : 'unknown',
      event_type: p.event_type,
      status_code: p.status_code,
      status_message: p.status_message,
      attributes: JSON.stringify(attributes),
      created_at: chTime(appendedMs * 1000),
    },
  };
}
