// Reads the live rows of traces from the span table (the projector's own read-before-write, used for
// roll-ups across requests, replacements and deletions).
import type { Clickhouse } from '@llm/clickhouse';
import { SPAN_TABLE_COLUMNS } from '@llm/span-table';
import type { SpanRow } from '../domain/span-row.ts';


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
    query: `SELECT ${SPAN_TABLE_COLUMNS} FROM ${ch.database}.${table} FINAL
            WHERE project_id = {p:String} AND trace_id IN {t:Array(String)} AND is_deleted = 0`,
    query_params: { p: projectId, t: existing },
    format: 'JSONEachRow',
  });
  return res.json<SpanRow>();
}
