// Stored row → the span returned by the API. Cumulative metrics live in their own columns (the
// projector recomputes them as a trace's spans arrive) and are laid over the stored attributes.
import { capJsonDepth, type JsonObject, type JsonValue, type Span, type SpanKind, type SpanType, type StatusCode, type TraceType } from '@llm/span-model';
import type { StoredSpanRow } from './span-reader.ts';

/** ClickHouse 'YYYY-MM-DD hh:mm:ss.ffffff' → ISO with Z, fraction only when non-zero. */
export function isoOf(ch: string): string {
  const [date, time = '00:00:00'] = ch.split(' ');
  const [hms, frac = ''] = time.split('.');
  const f = frac.replace(/0+$/, '');
  return `${date}T${hms}${f ? `.${frac.padEnd(6, '0')}` : ''}Z`;
}

const obj = (v: JsonValue | undefined): JsonObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? v : undefined);

// Rows stored before depth was capped at ingest must not break reads either (capJsonDepth).
function parse<T extends JsonValue>(s: string, fallback: T): T {
  if (!s) return fallback;
  try { return capJsonDepth(JSON.parse(s) as T); } catch { return fallback; }
}

export function spanView(r: StoredSpanRow): Span {
  const attributes = parse<JsonObject>(r.attributes, {});
  const ag = obj(attributes.ag);
  const metrics = ag ? obj(ag.metrics) : undefined;
  if (metrics) {
    const overlay = (name: 'tokens' | 'costs', v: Record<string, number>) => {
      // All-zero roll-ups are not written (a client-sent cumulative then stays as sent).
      if (!Object.values(v).some((x) => x !== 0)) return;
      const m = obj(metrics[name]) ?? {};
      m.cumulative = { ...v };
      metrics[name] = m;
    };
    overlay('tokens', r.tokens_cumulative);
    overlay('costs', r.costs_cumulative);
    if (r.errors_cumulative) {
      const m = obj(metrics.errors) ?? {};
      m.cumulative = r.errors_cumulative;
      metrics.errors = m;
    }
  }
  const span: Span = {
    trace_id: r.trace_id,
    span_id: r.span_id,
    span_name: r.span_name,
    span_kind: r.span_kind as SpanKind,
    span_type: r.span_type as SpanType,
    trace_type: r.trace_type as TraceType,
    status_code: r.status_code as StatusCode,
    start_time: isoOf(r.start_time),
    end_time: isoOf(r.end_time),
    attributes,
    events: parse(r.events, []),
    references: parse(r.references, []),
    hashes: parse(r.hashes, []),
  };
  if (r.parent_id) span.parent_id = r.parent_id;
  if (r.status_message) span.status_message = r.status_message;
  if (r.links) span.links = parse(r.links, []);
  if (r.session_id) span.session_id = r.session_id;
  if (r.user_id) span.user_id = r.user_id;
  return span;
}
