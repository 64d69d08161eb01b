import { isJsonObject } from './json-object.ts';
import { TRACE_TYPES, type JsonObject, type Span, type TraceType } from './span.ts';

const TRACE_TYPE_SET: ReadonlySet<string> = new Set(TRACE_TYPES);

/**
 * Reference §1.4 "Trace type", per trace_id over the spans given (one ingest batch):
 * 1. an explicit `ag.type.trace` sent by the client on any span of the trace (the first one, in
 *    batch order) wins — a client that says what its trace is knows better than a heuristic
 *    (the reference system overwrites it);
 * 2. else `annotation` when any span of the trace has `links` present (even an empty list);
 * 3. else `invocation`.
 * The result is written to `trace_type` and `ag.type.trace` of every span of that trace.
 * Returns new span objects (only those that change are copied); input is not mutated.
 * Idempotent: once written, the value reads back as explicit and is kept.
 */
export function deriveTraceTypes(spans: readonly Span[]): Span[] {
  const explicit = new Map<string, TraceType>();
  const linked = new Set<string>();
  for (const span of spans) {
    if (!explicit.has(span.trace_id)) {
      const t = explicitTraceType(span);
      if (t !== undefined) explicit.set(span.trace_id, t);
    }
    if (span.links !== undefined) linked.add(span.trace_id);
  }
  return spans.map((span) => {
    const traceType = explicit.get(span.trace_id) ?? (linked.has(span.trace_id) ? 'annotation' : 'invocation');
    return withTraceType(span, traceType);
  });
}

function explicitTraceType(span: Span): TraceType | undefined {
  const type = agType(span.attributes);
  const t = type?.trace;
  return typeof t === 'string' && TRACE_TYPE_SET.has(t) ? (t as TraceType) : undefined;
}

function agType(attributes: JsonObject): JsonObject | undefined {
  const ag = attributes.ag;
  if (!isJsonObject(ag)) return undefined;
  const type = ag.type;
  return isJsonObject(type) ? type : undefined;
}

function withTraceType(span: Span, traceType: TraceType): Span {
  const type = agType(span.attributes);
  if (span.trace_type === traceType && type?.trace === traceType) return span;
  const ag = isJsonObject(span.attributes.ag) ? span.attributes.ag : {};
  return {
    ...span,
    trace_type: traceType,
    attributes: { ...span.attributes, ag: { ...ag, type: { ...type, trace: traceType } } },
  };
}
