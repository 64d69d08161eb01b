// Normalised spans → SpanRecords (the spans topic payload), grouped per trace.
import type { SpanRecord } from '@llm/events';
import { epochMicros, type JsonValue, type Span } from '@llm/span-model';

const isObj = (v: unknown): v is Record<string, JsonValue> => !!v && typeof v === 'object' && !Array.isArray(v);

function at(o: unknown, ...path: string[]): unknown {
  let cur = o;
  for (const p of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

function numbers(v: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isObj(v)) return out;
  for (const [k, x] of Object.entries(v)) if (typeof x === 'number' && Number.isFinite(x)) out[k] = x;
  return out;
}

/** A normalised span's ISO-8601 UTC time → unix microseconds. */
export function isoToMicros(iso: string): number {
  return epochMicros(iso) ?? Date.parse(iso) * 1000;
}

// Most spans carry no events, references or hashes: skip the serializer for those.
const jsonList = (v: readonly unknown[]): string => (v.length === 0 ? '[]' : JSON.stringify(v));

export function toSpanRecord(s: Span): SpanRecord {
  const metrics = at(s.attributes, 'ag', 'metrics');
  const errors = at(metrics, 'errors', 'incremental');
  const duration = at(metrics, 'duration', 'cumulative');
  return {
    trace_id: s.trace_id,
    span_id: s.span_id,
    parent_id: s.parent_id ?? '',
    span_name: s.span_name,
    span_kind: s.span_kind,
    span_type: s.span_type,
    trace_type: s.trace_type,
    status_code: s.status_code,
    status_message: s.status_message ?? '',
    start_time_us: isoToMicros(s.start_time),
    end_time_us: isoToMicros(s.end_time),
    attributes_json: JSON.stringify(s.attributes),
    events_json: jsonList(s.events),
    links_json: s.links ? jsonList(s.links) : '',
    references_json: jsonList(s.references),
    hashes_json: jsonList(s.hashes),
    session_id: s.session_id ?? '',
    user_id: s.user_id ?? '',
    tokens_incremental: numbers(at(metrics, 'tokens', 'incremental')),
    costs_incremental: numbers(at(metrics, 'costs', 'incremental')),
    errors_incremental: typeof errors === 'number' ? errors : 0,
    duration_ms: typeof duration === 'number' ? duration : 0,
  };
}

/** Groups spans by trace, keeping first-seen trace order; a repeated span id keeps the last copy. */
export function groupByTrace(spans: Span[]): Map<string, SpanRecord[]> {
  const byTrace = new Map<string, Map<string, SpanRecord>>();
  for (const s of spans) {
    let m = byTrace.get(s.trace_id);
    if (!m) byTrace.set(s.trace_id, (m = new Map()));
    m.set(s.span_id, toSpanRecord(s));
  }
  return new Map([...byTrace].map(([t, m]) => [t, [...m.values()]]));
}
