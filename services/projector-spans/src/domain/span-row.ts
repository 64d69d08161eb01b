// The ClickHouse row of a span, and the mapping from the event's SpanRecord.
import type { SpanRecord } from '@llm/events';
import { tableTime as chTime, type SpanTableRow } from '@llm/span-table';

/** A span table row (the shared contract). */
export type SpanRow = SpanTableRow;

/** Marks a row written to the roots table only (a symbol key: never part of the row's JSON). */
const ROOTS_ONLY = Symbol('roots only');

/** The tombstone of a root that gained a parent under the same key: for trace_roots, not spans. */
export function rootsOnly(row: SpanRow): SpanRow {
  return Object.assign(row, { [ROOTS_ONLY]: true });
}

/** Whether a written row belongs in the span table (every row but a roots-only tombstone). */
export const isSpanTableRow = (row: SpanRow): boolean => !(ROOTS_ONLY in row);

/** Whether a written row belongs in the roots table: a root's version or tombstone, or a roots-only one. */
export const isRootsTableRow = (row: SpanRow): boolean => row.parent_id === '' || ROOTS_ONLY in row;


export function rowFromRecord(projectId: string, r: SpanRecord, createdAtUs: number, version: bigint): SpanRow {
  return {
    project_id: projectId,
    trace_id: r.trace_id,
    span_id: r.span_id,
    parent_id: r.parent_id,
    span_name: r.span_name,
    span_kind: r.span_kind,
    span_type: r.span_type,
    trace_type: r.trace_type,
    status_code: r.status_code,
    status_message: r.status_message,
    start_time: chTime(r.start_time_us),
    end_time: chTime(r.end_time_us),
    duration_ms: r.duration_ms,
    attributes: r.attributes_json,
    events: r.events_json,
    links: r.links_json,
    references: r.references_json,
    hashes: r.hashes_json,
    session_id: r.session_id,
    user_id: r.user_id,
    tokens_incremental: r.tokens_incremental ?? {},
    costs_incremental: r.costs_incremental ?? {},
    errors_incremental: r.errors_incremental,
    tokens_cumulative: {},
    costs_cumulative: {},
    errors_cumulative: 0,
    created_at: chTime(createdAtUs),
    version: version.toString(),
    is_deleted: 0,
  };
}
