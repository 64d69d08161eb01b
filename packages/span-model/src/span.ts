// The canonical span: what every ingest path (OTLP, native JSON, canonical traces, simple traces)
// produces after normalisation, what the spans topic carries, and what the query side returns.
// Wire casing (snake_case) on purpose: it is the shape of the HTTP API and of the ClickHouse columns.

export const SPAN_KINDS = [
  'SPAN_KIND_UNSPECIFIED',
  'SPAN_KIND_INTERNAL',
  'SPAN_KIND_SERVER',
  'SPAN_KIND_CLIENT',
  'SPAN_KIND_PRODUCER',
  'SPAN_KIND_CONSUMER',
] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];

export const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'] as const;
export type StatusCode = (typeof STATUS_CODES)[number];

export const SPAN_TYPES = [
  'agent', 'chain', 'workflow', 'task', 'tool', 'embedding', 'query', 'llm', 'completion', 'chat', 'rerank', 'unknown',
] as const;
export type SpanType = (typeof SPAN_TYPES)[number];

export const TRACE_TYPES = ['invocation', 'annotation', 'unknown'] as const;
export type TraceType = (typeof TRACE_TYPES)[number];

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface SpanEvent {
  name: string;
  /** ISO-8601 UTC, microsecond precision, e.g. 2024-01-01T00:00:00.123456Z */
  timestamp: string;
  attributes?: JsonObject;
}

export interface SpanLink {
  trace_id: string; // 32 lowercase hex
  span_id: string; // 16 (or 32) lowercase hex
  attributes?: JsonObject;
}

export interface SpanReference {
  id?: string;
  slug?: string;
  version?: string;
  attributes?: JsonObject;
}

export interface SpanHash {
  id: string;
  attributes: JsonObject;
}

/**
 * A span before normalisation: the native ingest shape (spec "Span (native ingest shape)"), and what the
 * OTLP decoder and its semantic-convention adapters hand over. Attributes may be flat dotted keys,
 * nested objects, or both; ids and times are not yet validated.
 */
export interface RawSpan {
  trace_id: string;
  span_id: string;
  parent_id?: string | null;
  span_name?: string | null;
  span_kind?: string | null;
  span_type?: string | null;
  status_code?: string | null;
  status_message?: string | null;
  /** ISO-8601 string, or unix seconds/ms/µs/ns as integer or integer-looking string. */
  start_time?: string | number | null;
  end_time?: string | number | null;
  attributes?: JsonObject | null;
  events?: Array<{ name: string; timestamp?: string | number | null; attributes?: JsonObject | null }> | null;
  links?: Array<{ trace_id: string; span_id: string; attributes?: JsonObject | null }> | null;
  references?: SpanReference[] | null;
  /** Kept on child spans as sent; on root spans replaced by `ag.session.id` / `ag.user.id` when those are set. */
  session_id?: string | null;
  user_id?: string | null;
}

/** A normalised span. Times are ISO-8601 UTC with 6 fractional digits. */
export interface Span {
  trace_id: string;
  span_id: string;
  parent_id?: string;
  span_name: string;
  span_kind: SpanKind;
  span_type: SpanType;
  trace_type: TraceType;
  status_code: StatusCode;
  status_message?: string;
  start_time: string;
  end_time: string;
  /** Normalised nested attributes; always holds ag.type, ag.data and ag.metrics. */
  attributes: JsonObject;
  events: SpanEvent[];
  links?: SpanLink[];
  references: SpanReference[];
  hashes: SpanHash[];
  session_id?: string;
  user_id?: string;
}
