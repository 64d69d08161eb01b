// Writes one batch of span rows: first the trace index rows (each trace's first/last span start in
// the batch), then the span rows, then the roots' rows into trace_roots (migration 0006). The index
// goes first so it always covers what the span table holds; a retry after a failure between the
// inserts only widens ranges already right and writes the same versions again.
import type { Clickhouse } from '@llm/clickhouse';
import { tableTime, timeUs, type SpanTables } from '@llm/span-table';
import { isRootsTableRow, isSpanTableRow, type SpanRow } from '../domain/span-row.ts';

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
  const roots: SpanRow[] = [];
  let rootsOnly = false;
  for (const r of rows) {
    if (isRootsTableRow(r)) roots.push(r);
    if (!isSpanTableRow(r)) rootsOnly = true;
  }
  const spans = rootsOnly ? rows.filter(isSpanTableRow) : rows;
  await ch.client.insert({ table: `${ch.database}.${tables.traceIndex}`, values: traceIndexRows(spans), format: 'JSONEachRow' });
  await ch.client.insert({ table: `${ch.database}.${tables.spans}`, values: spans, format: 'JSONEachRow' });
  // After the span rows: a retry after a failure between the two writes them again, idempotently.
  if (roots.length > 0) await ch.client.insert({ table: `${ch.database}.${tables.roots}`, values: roots, format: 'JSONEachRow' });
}
