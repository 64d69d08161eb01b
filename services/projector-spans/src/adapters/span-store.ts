// Reads the live rows of traces from the span table (the projector's own read-before-write, used for
// roll-ups across requests, replacements and deletions).
import type { Clickhouse } from '@llm/clickhouse';
import type { SpanRow } from '../domain/span-row.ts';

const COLUMNS = `project_id, trace_id, span_id, parent_id, span_name, span_kind, span_type, trace_type, status_code,
  status_message, toString(start_time) AS start_time, toString(end_time) AS end_time, duration_ms, attributes, events, links,
  references, hashes, session_id, user_id, tokens_incremental, costs_incremental, errors_incremental, tokens_cumulative,
  costs_cumulative, errors_cumulative, toString(created_at) AS created_at, toString(version) AS version, is_deleted`;

export async function loadTraces(ch: Clickhouse, table: string, projectId: string, traceIds: string[]): Promise<SpanRow[]> {
  if (traceIds.length === 0) return [];
  // Most traces in a batch are new. Finding which ones exist reads only the ordering-key columns;
  // the full rows (wide attribute strings, merged with FINAL) are read only for those.
  const known = await ch.client.query({
    query: `SELECT DISTINCT trace_id FROM ${ch.database}.${table} WHERE project_id = {p:String} AND trace_id IN {t:Array(String)}`,
    query_params: { p: projectId, t: traceIds },
    format: 'JSONEachRow',
  });
  const existing = (await known.json<{ trace_id: string }>()).map((r) => r.trace_id);
  if (existing.length === 0) return [];
  const res = await ch.client.query({
    query: `SELECT ${COLUMNS} FROM ${ch.database}.${table} FINAL
            WHERE project_id = {p:String} AND trace_id IN {t:Array(String)} AND is_deleted = 0`,
    query_params: { p: projectId, t: existing },
    format: 'JSONEachRow',
  });
  return res.json<SpanRow>();
}
