// Writes one batch of span rows: first the trace index rows (each trace's first/last span start in
// the batch), then the span rows. The index goes first so it always covers what the span table
// holds; a retry after a failure between the two inserts only widens ranges already right.
import type { Clickhouse } from '@llm/clickhouse';
import { tableTime, timeUs, type SpanTables } from '@llm/span-table';
import type { SpanRow } from '../domain/span-row.ts';

interface TraceIndexRow { project_id: string; trace_id: string; first_start: string; last_start: string }

export function traceIndexRows(rows: SpanRow[]): TraceIndexRow[] {
  const byTrace = new Map<string, { project_id: string; trace_id: string; lo: number; hi: number }>();
  for (const r of rows) {
    const t = timeUs(r.start_time);
    const key = `${r.project_id}\u0000${r.trace_id}`;
    const e = byTrace.get(key);
    if (!e) byTrace.set(key, { project_id: r.project_id, trace_id: r.trace_id, lo: t, hi: t });
    else { if (t < e.lo) e.lo = t; if (t > e.hi) e.hi = t; }
  }
  return [...byTrace.values()].map((e) => ({ project_id: e.project_id, trace_id: e.trace_id, first_start: tableTime(e.lo), last_start: tableTime(e.hi) }));
}


export async function insertSpanRows(ch: Clickhouse, tables: SpanTables, rows: SpanRow[]): Promise<void> {
  await ch.client.insert({ table: `${ch.database}.${tables.traceIndex}`, values: traceIndexRows(rows), format: 'JSONEachRow' });
  await ch.client.insert({ table: `${ch.database}.${tables.spans}`, values: rows, format: 'JSONEachRow' });
}
