// The export's key-range pages on chDB against the migrated span table: walked to the end in either
// order they hold every current span exactly once — superseded versions, deleted spans and the old
// key of a span whose start time moved never appear, spans sharing a start time are split between
// pages without loss — pages respect their span and byte bounds, and the project and filter bound them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickhouse, openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { compileFilter, compileWindowing } from '@llm/span-filter';
import { tableTime, type SpanTableRow } from '@llm/span-table';
import { ExportReader, type ExportCursor } from '../src/adapters/export-reader.ts';
import { ReadModel, spanView } from '@llm/span-read';
import { exportEncoder } from '../src/domain/export-encoders.ts';

const SPAN_MIGRATIONS = path.resolve(import.meta.dirname, '../../projector-spans/migrations/');
const P = 'p-export';
const OTHER = 'p-other';
const NOW_US = Date.now() * 1000;
const hex = (n: number, len: number): string => n.toString(16).padStart(len, '0');

function row(project: string, n: number, startUs: number, o: { version?: number; deleted?: boolean; name?: string; pad?: number } = {}): SpanTableRow {
  return {
    project_id: project, trace_id: hex(Math.floor(n / 3), 32), span_id: hex(n, 16), parent_id: '', span_name: o.name ?? `s${n}`, span_kind: 'SPAN_KIND_INTERNAL',
    span_type: 'task', trace_type: 'invocation', status_code: 'STATUS_CODE_UNSET', status_message: '',
    start_time: tableTime(startUs), end_time: tableTime(startUs + 10), duration_ms: 0.01,
    attributes: JSON.stringify({ pad: 'x'.repeat(o.pad ?? 10) }), events: '[]', links: '[]', references: '[]', hashes: '[]', session_id: '', user_id: '',
    tokens_incremental: {}, costs_incremental: {}, errors_incremental: 0, tokens_cumulative: {}, costs_cumulative: {}, errors_cumulative: 0,
    created_at: tableTime(NOW_US), version: String(o.version ?? 1), is_deleted: o.deleted ? 1 : 0,
  };
}

// 100 spans of P a millisecond apart, except spans 40–59 which all start at the same instant.
const startOf = (n: number): number => NOW_US - 3_600_000_000 + (n >= 40 && n < 60 ? 40_000 : n * 1000);
const LIVE = Array.from({ length: 100 }, (_, n) => n);
let dir: string;
let ch: Clickhouse;
let rm: ReadModel;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'query-export-'));
  ch = await openClickhouse({ dataDir: dir, database: 'llm' });
  await migrateClickhouse(ch, SPAN_MIGRATIONS);
  const rows = [
    ...LIVE.map((n) => row(P, n, startOf(n))),
    // Superseded versions (the newer name wins), a deleted span, a span that moved (tombstone at its old key).
    ...[5, 45, 95].map((n) => row(P, n, startOf(n), { version: 2, name: `s${n}-v2` })),
    row(P, 100, startOf(30) + 1, { version: 1 }), row(P, 100, startOf(30) + 1, { version: 2, deleted: true }),
    row(P, 101, startOf(70) + 1, { version: 1, name: 'moved' }), row(P, 101, startOf(70) + 1, { version: 2, deleted: true }), row(P, 101, startOf(10) + 1, { version: 2, name: 'moved' }),
    ...Array.from({ length: 20 }, (_, n) => row(OTHER, 1000 + n, startOf(n))),
  ];
  // Separate inserts: versions land in different parts, as the projector writes them.
  for (const chunk of [rows.slice(0, 100), rows.slice(100)]) await ch.client.insert({ table: 'llm.spans', values: chunk, format: 'JSONEachRow' });
  rm = new ReadModel(ch, 10_000);
}, 60_000);
afterAll(async () => { await ch?.close(); if (dir) rmSync(dir, { recursive: true, force: true }); });

function search(order: 'ascending' | 'descending', filtering: unknown = {}) {
  const f = compileFilter(filtering, { projectParam: 'pp' });
  const w = compileWindowing({ order }, 'span');
  if (!f.ok || !w.ok) throw new Error('compile');
  const values = (p: Record<string, { value: unknown }>) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.value]));
  return { projectId: P, where: `${f.sql} AND ${w.where}`, params: { ...values(f.params), ...values(w.params), pp: P }, order, orderBy: w.orderBy };
}

async function walk(reader: ExportReader, q: ReturnType<typeof search>): Promise<{ names: string[]; ids: string[]; pages: number[] }> {
  const names: string[] = [];
  const ids: string[] = [];
  const pages: number[] = [];
  let after: ExportCursor | undefined;
  for (let i = 0; i < 500; i++) {
    const p = await reader.page(q, after);
    pages.push(p.rows.length);
    for (const r of p.rows) { names.push(r.span_name); ids.push(r.span_id); }
    after = p.next;
    if (!after) break;
  }
  return { names, ids, pages };
}

const expected = (): string[] => [...LIVE.map((n) => (n === 5 || n === 45 || n === 95 ? `s${n}-v2` : `s${n}`)), 'moved'];

describe('export pages', () => {
  it.each(['descending', 'ascending'] as const)('when a project is walked %s in pages of 7, then every current span comes once, in order', async (order) => {
    const w = await walk(new ExportReader(rm, 7, 1 << 30), search(order));
    expect([...w.names].sort()).toEqual(expected().sort());
    expect(new Set(w.ids).size).toBe(w.ids.length);
    expect(Math.max(...w.pages)).toBeLessThanOrEqual(7);
    // Window order: by start time (ties by trace and span id), the moved span at its new time.
    const at = w.names.indexOf('moved');
    expect(w.names[order === 'ascending' ? at - 1 : at + 1]).toBe('s10');
    expect(w.names[0]).toBe(order === 'ascending' ? 's0' : 's99');
  });

  it('when pages are bounded by bytes, then each ends at the last span that fits (at least one) and the walk still sees every span', async () => {
    const w = await walk(new ExportReader(rm, 1000, 1), search('descending'));
    expect(w.pages.every((n) => n <= 1)).toBe(true);
    expect([...w.names].sort()).toEqual(expected().sort());
    // One statement per span (pages of one): ~4 s on a quiet machine, past the 5 s default under load.
  }, 60_000);

  it('when a filter is given, then only its matches of the project are exported', async () => {
    const w = await walk(new ExportReader(rm, 4, 1 << 30), search('descending', { conditions: [{ field: 'span_name', operator: 'startswith', value: 's4' }] }));
    expect(w.names).toEqual(['s49', 's48', 's47', 's46', 's45-v2', 's44', 's43', 's42', 's41', 's40', 's4']);
  });
});

describe('Parquet export read by the engine', () => {
  it('when the pages are written as Parquet, then ClickHouse reads the same rows and values back', async () => {
    const reader = new ExportReader(rm, 30, 1 << 30);
    const enc = exportEncoder('parquet');
    const parts = [enc.start()];
    let after: ExportCursor | undefined;
    do {
      const p = await reader.page(search('ascending'), after);
      const spans = p.rows.map(spanView);
      parts.push(enc.page({ spans, records: spans }));
      after = p.next;
    } while (after);
    parts.push(enc.end());
    const file = path.join(dir, 'export.parquet');
    writeFileSync(file, Buffer.concat(parts));
    const res = await ch.client.query({
      query: `SELECT count() AS n, countIf(span_name = 's45-v2') AS v2, min(start_time) = {first:DateTime64(6, 'UTC')} AS first_ok, sum(duration_ms) AS d
              FROM file({f:String}, Parquet)`,
      query_params: { f: file, first: tableTime(startOf(0)) }, format: 'JSONEachRow',
    });
    expect(await res.json()).toEqual([{ n: 101, v2: 1, first_ok: 1, d: 101 * 0.01 }]);
  });
});
