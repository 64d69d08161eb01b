// The contract of the ClickHouse span table (created and written only by projector-spans, see its
// migrations; read by the query side): one row type and one column list for both.

export interface SpanTableRow {
  project_id: string;
  trace_id: string;
  span_id: string;
  parent_id: string;
  span_name: string;
  span_kind: string;
  span_type: string;
  trace_type: string;
  status_code: string;
  status_message: string;
  /** DateTime64(6) input: unix seconds with 6 decimals when written, 'YYYY-MM-DD hh:mm:ss.ffffff' when read back. */
  start_time: string;
  end_time: string;
  duration_ms: number;
  attributes: string;
  events: string;
  links: string;
  references: string;
  hashes: string;
  session_id: string;
  user_id: string;
  tokens_incremental: Record<string, number>;
  costs_incremental: Record<string, number>;
  errors_incremental: number;
  tokens_cumulative: Record<string, number>;
  costs_cumulative: Record<string, number>;
  errors_cumulative: number;
  created_at: string;
  version: string; // UInt64 as decimal text
  is_deleted: number;
}

/** Every column, with times and version as text (what the row type says), for SELECTs. */
export const SPAN_TABLE_COLUMNS = `project_id, trace_id, span_id, parent_id, span_name, span_kind, span_type, trace_type, status_code,
  status_message, toString(start_time) AS start_time, toString(end_time) AS end_time, duration_ms, attributes, events, links,
  references, hashes, session_id, user_id, tokens_incremental, costs_incremental, errors_incremental, tokens_cumulative,
  costs_cumulative, errors_cumulative, toString(created_at) AS created_at, toString(version) AS version, is_deleted`;
