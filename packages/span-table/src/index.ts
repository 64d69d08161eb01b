export { SPAN_TABLE_COLUMNS } from './span-table-row.ts';
export type { SpanTableRow } from './span-table-row.ts';
