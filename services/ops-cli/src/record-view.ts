// How a record's value is shown to an operator: a decoded event envelope where it is one, else
// JSON, else text, else base64 — never a failure, since the records worth inspecting are exactly the
// ones something else could not read.
import { decodeEvent } from '@llm/events';

export interface EventView {
  time: string;
  type: string;
  event_id: string;
  schema_version: number;
  aggregate_id: string;
  project_id: string;
  organization_id: string;
  actor_id: string;
  request_id: string;
  expected_version: number;
  payload: unknown;
}

export type ValueView =
  | { kind: 'event'; event: EventView }
  | { kind: 'json'; json: unknown; decode_error?: string }
  | { kind: 'text'; text: string; decode_error?: string }
  | { kind: 'binary'; base64: string; decode_error?: string }
  | { kind: 'empty' };

export function viewValue(value: Buffer | null): ValueView {
  if (!value || value.length === 0) return { kind: 'empty' };
  const decoded = decodeEvent(value);
  if (decoded.ok) {
    const e = decoded.value;
    return {
      kind: 'event',
      event: {
        time: timeOf(e.timeUs), type: e.type, event_id: e.eventId, schema_version: e.schemaVersion, aggregate_id: e.aggregateId,
        project_id: e.projectId, organization_id: e.organizationId, actor_id: e.actorId, request_id: e.requestId,
        expected_version: e.expectedVersion, payload: plain(e.payload),
      },
    };
  }
  const decode_error = decoded.error;
  const text = value.toString('utf8');
  // Text is shown as text only when it round-trips (no replacement characters from invalid UTF-8).
  if (Buffer.from(text, 'utf8').equals(value)) {
    try { return { kind: 'json', json: JSON.parse(text) as unknown, decode_error }; } catch { return { kind: 'text', text, decode_error }; }
  }
  return { kind: 'binary', base64: value.toString('base64'), decode_error };
}

/** A microsecond timestamp as ISO 8601 (0 = not recorded). */
export const timeOf = (timeUs: number): string => (timeUs > 0 ? new Date(Math.floor(timeUs / 1000)).toISOString() : '');

/** Protobuf objects made JSON-safe: bytes as base64, bigints as strings. */
export function plain(v: unknown): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}
