// Reads the live rows of traces from the span table (the projector's own read-before-write, used for
// roll-ups across requests, replacements and deletions).
import type { Clickhouse } from '@llm/clickhouse';
import { SPAN_TABLE_COLUMNS, locateTraces, timeRangesPredicate, type SpanTables } from '@llm/span-table';
import type { SpanRow } from '../domain/span-row.ts';

export async function loadTraces(ch: Clickhouse, tables: SpanTables, projectId: string, traceIds: string[]): Promise<SpanRow[]> {
  // Most traces in a batch are new: the trace index (ordered by trace id) says which exist and where
  // in time; only those ranges of the span table are read, merged with FINAL.
  const ranges = await locateTraces(ch, tables, projectId, traceIds);
  if (ranges.length === 0) return [];
  const time = timeRangesPredicate(ranges);
  const res = await ch.client.query({
    query: `SELECT ${SPAN_TABLE_COLUMNS} FROM ${ch.database}.${tables.spans} FINAL
            WHERE project_id = {p:String} AND ${time.sql} AND trace_id IN {t:Array(String)} AND is_deleted = 0`,
    query_params: { p: projectId, t: ranges.map((r) => r.trace_id), ...time.params },
    format: 'JSONEachRow',
    // SPAN_TABLE_COLUMNS aliases `toString(start_time) AS start_time`; the time ranges must compare
    // the column, not the alias.
    clickhouse_settings: { prefer_column_name_to_alias: 1 },
  });
  return res.json<SpanRow>();
}
