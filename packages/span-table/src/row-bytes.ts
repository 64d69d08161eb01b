// The approximate size of a span row, one formula in two forms: SQL, so that a read can size its
// result in ClickHouse before fetching it (`length` of a String reads only its size subcolumn), and
// TypeScript, so that the projector can size the rows it keeps in memory. Text columns count their
// length (bytes in ClickHouse, UTF-16 code units here); the fixed-width columns, the object around
// the row and the token/cost maps get a flat allowance. An estimate for bounds, not an accounting.
import type { SpanTableRow } from './span-table-row.ts';

/** Times, numbers, version, flags and the object holding them. */
export const ROW_OVERHEAD_BYTES = 256;
/** One entry of a token or cost map (key, value, hash-table slot). */
export const MAP_ENTRY_BYTES = 32;

const TEXT_COLUMNS = [
  'trace_id', 'span_id', 'parent_id', 'span_name', 'span_kind', 'span_type', 'trace_type', 'status_code',
  'status_message', 'attributes', 'events', 'links', 'references', 'hashes', 'session_id', 'user_id',
] as const satisfies ReadonlyArray<keyof SpanTableRow>;

const MAP_COLUMNS = ['tokens_incremental', 'costs_incremental', 'tokens_cumulative', 'costs_cumulative'] as const satisfies ReadonlyArray<keyof SpanTableRow>;

/** A UInt64 expression over the span table's columns: the row's approximate size in bytes. */
export const SPAN_ROW_BYTES_SQL = `(${ROW_OVERHEAD_BYTES} + ${TEXT_COLUMNS.map((c) => `length(${c})`).join(' + ')}`
  + ` + ${MAP_ENTRY_BYTES} * (${MAP_COLUMNS.map((c) => `length(${c})`).join(' + ')}))`;

/** The same estimate for a row in memory. */
export function spanRowBytes(row: SpanTableRow): number {
  let n = ROW_OVERHEAD_BYTES;
  for (const c of TEXT_COLUMNS) n += row[c].length;
  for (const c of MAP_COLUMNS) n += MAP_ENTRY_BYTES * Object.keys(row[c]).length;
  return n;
}

/** The SQL estimate exactly, for a row read back (text counted in UTF-8 bytes, as `length` does). */
export function spanRowStoredBytes(row: SpanTableRow): number {
  let n = ROW_OVERHEAD_BYTES;
  for (const c of TEXT_COLUMNS) n += Buffer.byteLength(row[c], 'utf8');
  for (const c of MAP_COLUMNS) n += MAP_ENTRY_BYTES * Object.keys(row[c]).length;
  return n;
}
