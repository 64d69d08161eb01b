// The page cursor of span and trace queries: opaque to clients (base64url of a small JSON object),
// so its content can change without breaking them. It holds the sort key of the last item returned,
// the full key including the tie-breakers, so that items sharing a start time are neither skipped
// nor repeated.
import { parseTimestampMicros } from '@llm/span-model';
import { z } from 'zod';

export interface WindowCursor {
  /** start_time (span focus) or trace key (trace focus) of the last item, epoch µs. */
  t: number;
  /** Span focus: `<trace_id>:<span_id>`; trace focus: `<trace_id>` (lowercase hex as stored). */
  id: string;
}

const CursorSchema = z.strictObject({ t: z.number().int(), id: z.string().min(1).max(100) });

const MAX_CURSOR_LENGTH = 512;
const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_KEY = /^([0-9a-f]{32}):([0-9a-f]{16}|[0-9a-f]{32})$/;

export function encodeCursor(c: WindowCursor): string {
  return Buffer.from(JSON.stringify({ t: c.t, id: c.id }), 'utf8').toString('base64url');
}

export function decodeCursor(s: string): { ok: true; value: WindowCursor } | { ok: false; error: string } {
  const bad = { ok: false as const, error: 'is not a cursor returned by this API' };
  if (s.length === 0 || s.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(s)) return bad;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  } catch {
    return bad;
  }
  const parsed = CursorSchema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : bad;
}

/**
 * The cursor after a span, for the next page of a span-focused query. `start_time` as epoch µs or as
 * read back from ClickHouse (`2024-01-01 00:00:00.000000`, UTC).
 */
export function spanCursor(span: { start_time: number | string; trace_id: string; span_id: string }): string {
  return encodeCursor({ t: micros(span.start_time), id: `${span.trace_id}:${span.span_id}` });
}

/** The cursor after a trace, for the next page of a trace-focused query (`key` = its sort key). */
export function traceCursor(trace: { key: number | string; trace_id: string }): string {
  return encodeCursor({ t: micros(trace.key), id: trace.trace_id });
}

// Times here come from our own rows; one that does not parse is a bug, not a client error.
function micros(t: number | string): number {
  if (typeof t === 'number') return t;
  const r = parseTimestampMicros(t);
  if (!r.ok) throw new Error(`cannot build a cursor from time '${t}': ${r.error}`);
  return r.value;
}

/** Splits a span-focus cursor id; undefined when it is not one. */
export function splitSpanKey(id: string): { trace_id: string; span_id: string } | undefined {
  const m = SPAN_KEY.exec(id);
  return m === null ? undefined : { trace_id: m[1]!, span_id: m[2]! };
}

export function isTraceKey(id: string): boolean {
  return TRACE_ID.test(id);
}
