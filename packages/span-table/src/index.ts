export { SPAN_TABLE_COLUMNS } from './span-table-row.ts';
export type { SpanTableRow } from './span-table-row.ts';
export { spanTables, type SpanTables } from './tables.ts';
export { locateTraces, traceIdsParam, traceIdsSql, timeRangesPredicate, tableTime, timeUs, timeUsParam, type TraceRange } from './trace-locator.ts';
export { SPAN_ROW_BYTES_SQL, spanRowBytes, spanRowStoredBytes, ROW_OVERHEAD_BYTES, MAP_ENTRY_BYTES } from './row-bytes.ts';
export { EARLIEST_US, RETAINED_FROM_PARAM, RETAINED_SPANS_SQL, retainedFromUs } from './retention.ts';
