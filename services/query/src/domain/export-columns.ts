// The flat columns of a span in the CSV and Parquet exports (docs/operations.md, "Exports"): every
// field of the API's span, nested ones as JSON text, plus the metrics most exports are opened for
// lifted out of `attributes` so a spreadsheet can sum them. One list for both formats, so a CSV and
// a Parquet file of the same query have the same columns in the same order.
import type { JsonObject, JsonValue, Span } from '@llm/span-model';

export type ExportColumnType = 'string' | 'timestamp' | 'double';

/** A cell: text, a number, a timestamp in µs since the epoch, or null (absent). */
export type ExportCell = string | number | null;

export interface ExportColumn {
  name: string;
  type: ExportColumnType;
  value(span: Span): ExportCell;
}

const obj = (v: JsonValue | undefined): JsonObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? v : undefined);
const num = (v: JsonValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** `attributes.ag.metrics.<name>` of a span. */
function metric(span: Span, name: string): JsonObject | undefined {
  return obj(obj(obj(span.attributes.ag)?.metrics)?.[name]);
}

/** A metric's `total` (tokens, costs) or its value (errors), cumulative or incremental. */
function total(span: Span, name: string, layout: 'cumulative' | 'incremental'): number | null {
  const m = metric(span, name)?.[layout];
  return typeof m === 'number' ? num(m) : num(obj(m)?.total);
}

/** `YYYY-MM-DDThh:mm:ss[.ffffff]Z` (the API's span times) → µs since the epoch. */
export function isoMicros(iso: string): number {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/.exec(iso);
  if (!m) return Number.NaN;
  return Date.parse(`${m[1]!}Z`) * 1000 + Number((m[2] ?? '').padEnd(6, '0'));
}

const text = (v: unknown): string => JSON.stringify(v ?? null);

export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { name: 'trace_id', type: 'string', value: (s) => s.trace_id },
  { name: 'span_id', type: 'string', value: (s) => s.span_id },
  { name: 'parent_id', type: 'string', value: (s) => s.parent_id ?? null },
  { name: 'span_name', type: 'string', value: (s) => s.span_name },
  { name: 'span_type', type: 'string', value: (s) => s.span_type },
  { name: 'span_kind', type: 'string', value: (s) => s.span_kind },
  { name: 'trace_type', type: 'string', value: (s) => s.trace_type },
  { name: 'status_code', type: 'string', value: (s) => s.status_code },
  { name: 'status_message', type: 'string', value: (s) => s.status_message ?? null },
  { name: 'start_time', type: 'timestamp', value: (s) => isoMicros(s.start_time) },
  { name: 'end_time', type: 'timestamp', value: (s) => isoMicros(s.end_time) },
  { name: 'duration_ms', type: 'double', value: (s) => (isoMicros(s.end_time) - isoMicros(s.start_time)) / 1000 },
  { name: 'session_id', type: 'string', value: (s) => s.session_id ?? null },
  { name: 'user_id', type: 'string', value: (s) => s.user_id ?? null },
  { name: 'tokens_incremental_total', type: 'double', value: (s) => total(s, 'tokens', 'incremental') },
  { name: 'tokens_cumulative_total', type: 'double', value: (s) => total(s, 'tokens', 'cumulative') },
  { name: 'costs_incremental_total', type: 'double', value: (s) => total(s, 'costs', 'incremental') },
  { name: 'costs_cumulative_total', type: 'double', value: (s) => total(s, 'costs', 'cumulative') },
  { name: 'errors_incremental', type: 'double', value: (s) => total(s, 'errors', 'incremental') },
  { name: 'errors_cumulative', type: 'double', value: (s) => total(s, 'errors', 'cumulative') },
  { name: 'attributes', type: 'string', value: (s) => text(s.attributes) },
  { name: 'events', type: 'string', value: (s) => text(s.events) },
  { name: 'links', type: 'string', value: (s) => (s.links ? text(s.links) : null) },
  { name: 'references', type: 'string', value: (s) => text(s.references) },
  { name: 'hashes', type: 'string', value: (s) => text(s.hashes) },
];
