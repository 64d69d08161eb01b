// Reads are bounded by the approximate stored bytes of their rows (QUERY_MAX_RESULT_BYTES): reads by
// id are sized in ClickHouse and refused (413) above the bound before anything is fetched; trace
// pages end after the last whole trace that fits; span pages end early with a cursor and always make
// progress. Run on chDB against the migrated span table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickhouse, openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { AppError } from '@llm/errors';
import { SPAN_ROW_BYTES_SQL, spanRowBytes, tableTime, type SpanTableRow } from '@llm/span-table';
import { ReadModel, SpanReader } from '@llm/span-read';
import { SpanSearcher, type SpanSearch } from '@llm/span-read';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../projector-spans/migrations/');
const PROJECT = 'p-bounds';
const KB = 1024;
const BASE_US = Date.parse('2025-03-01T00:00:00Z') * 1000;
const trace = (n: number): string => n.toString(16).padStart(32, '0');
const span = (n: number): string => n.toString(16).padStart(16, '0');

/** A span row whose size estimate is about `bytes`. */
function row(traceN: number, spanN: number, bytes: number): SpanTableRow {
  const r: SpanTableRow = {
    project_id: PROJECT, trace_id: trace(traceN), span_id: span(spanN), parent_id: '', span_name: 's', span_kind: 'SPAN_KIND_INTERNAL',
    span_type: 'task', trace_type: 'invocation', status_code: 'STATUS_CODE_UNSET', status_message: '',
    start_time: tableTime(BASE_US + spanN * 1000), end_time: tableTime(BASE_US + spanN * 1000 + 10), duration_ms: 0.01,
    attributes: '', events: '[]', links: '[]', references: '[]', hashes: '[]', session_id: '', user_id: '',
    tokens_incremental: {}, costs_incremental: {}, errors_incremental: 0, tokens_cumulative: {}, costs_cumulative: {}, errors_cumulative: 0,
    created_at: tableTime(BASE_US), version: '1', is_deleted: 0,
  };
  const pad = Math.max(0, bytes - spanRowBytes(r) - '{"pad":""}'.length);
  return { ...r, attributes: JSON.stringify({ pad: 'x'.repeat(pad) }) };
}

// Trace 1: ten 10 KiB spans (spans 100-109). Trace 2: three 1 KiB spans (200-202). Trace 3: two 10 KiB
// spans (300-301). Start times follow span numbers, so newest first is 3, 2, 1.
const ROWS: SpanTableRow[] = [
  ...Array.from({ length: 10 }, (_, i) => row(1, 100 + i, 10 * KB)),
  ...Array.from({ length: 3 }, (_, i) => row(2, 200 + i, KB)),
  ...Array.from({ length: 2 }, (_, i) => row(3, 300 + i, 10 * KB)),
];

let dir: string;
let ch: Clickhouse;
let rm: ReadModel;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'query-bounds-'));
  ch = await openClickhouse({ dataDir: dir, database: 'llm' });
  await migrateClickhouse(ch, MIGRATIONS);
  const index = [1, 2, 3].map((n) => {
    const starts = ROWS.filter((r) => r.trace_id === trace(n)).map((r) => r.start_time).sort();
    return { project_id: PROJECT, trace_id: trace(n), first_start: starts[0], last_start: starts[starts.length - 1] };
  });
  await ch.client.insert({ table: 'llm.trace_index', values: index, format: 'JSONEachRow' });
  await ch.client.insert({ table: 'llm.spans', values: ROWS, format: 'JSONEachRow' });
  rm = new ReadModel(ch, 10_000);
}, 60_000);
afterAll(async () => { await ch?.close(); if (dir) rmSync(dir, { recursive: true, force: true }); });

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('row size estimate', () => {
  it('when ClickHouse sizes stored rows, then it agrees with the in-memory estimate (ASCII text)', async () => {
    const res = await ch.client.query({ query: `SELECT span_id, ${SPAN_ROW_BYTES_SQL} AS b FROM llm.spans ORDER BY span_id`, format: 'JSONEachRow' });
    const got = await res.json<{ span_id: string; b: string | number }>();
    const want = [...ROWS].sort((a, b) => (a.span_id < b.span_id ? -1 : 1)).map((r) => ({ span_id: r.span_id, b: spanRowBytes(r) }));
    expect(got.map((r) => ({ span_id: r.span_id, b: Number(r.b) }))).toEqual(want);
    expect(want[0]!.b).toBe(10 * KB);
  });
});

describe('reads by id', () => {
  it('when a trace is above the byte bound, then the read is refused with 413 naming the limit', async () => {
    const reader = new SpanReader(rm, 50 * KB);
    const err = await refusal(reader.byIds(PROJECT, [trace(1)], []));
    expect(err.kind).toBe('too_large');
    expect(err.code).toBe('result_too_large');
    expect(err.message).toContain('QUERY_MAX_RESULT_BYTES');
    expect(err.message).toContain(trace(1));
    expect(err.details).toEqual({ max_result_bytes: 50 * KB, estimated_bytes: 100 * KB });
  });

  it('when a read is within the bound, then every span comes back', async () => {
    expect(await new SpanReader(rm, 50 * KB).byIds(PROJECT, [trace(2)], [])).toHaveLength(3);
    expect(await new SpanReader(rm, 200 * KB).byIds(PROJECT, [trace(1)], [])).toHaveLength(10);
    // One span of a large trace is a small read.
    expect(await new SpanReader(rm, 50 * KB).byIds(PROJECT, [trace(1)], [span(105)])).toHaveLength(1);
  });

  it('when a trace of non-ASCII text is just above the bound in UTF-8 bytes, then it is refused like the sizing query would', async () => {
    // 2 bytes per 'é' in ClickHouse's length(), 1 UTF-16 unit in JavaScript: the bound is in bytes.
    const p2 = 'p-bounds-utf8';
    const r: SpanTableRow = { ...row(9, 900, 0), project_id: p2, attributes: JSON.stringify({ t: 'é'.repeat(8 * KB) }) };
    await ch.client.insert({ table: 'llm.trace_index', values: [{ project_id: p2, trace_id: r.trace_id, first_start: r.start_time, last_start: r.start_time }], format: 'JSONEachRow' });
    await ch.client.insert({ table: 'llm.spans', values: [r], format: 'JSONEachRow' });
    const err = await refusal(new SpanReader(rm, 12 * KB).byIds(p2, [trace(9)], []));
    expect(err.code).toBe('result_too_large');
    expect((err.details as { estimated_bytes: number }).estimated_bytes).toBeGreaterThan(16 * KB);
    expect(await new SpanReader(rm, 20 * KB).byIds(p2, [trace(9)], [])).toHaveLength(1);
  });

  it('when a trace is far above the bound, then ClickHouse stops the read early and the refusal names the whole trace', async () => {
    // Four 1 MiB spans: the single-trace read is cut by ClickHouse (at twice the bound plus 1 MiB)
    // and the trace is sized the two-step way.
    const p3 = 'p-bounds-huge';
    const big = Array.from({ length: 4 }, (_, i) => ({ ...row(7, 700 + i, 1024 * KB), project_id: p3 }));
    await ch.client.insert({ table: 'llm.trace_index', values: [{ project_id: p3, trace_id: trace(7), first_start: big[0]!.start_time, last_start: big[3]!.start_time }], format: 'JSONEachRow' });
    await ch.client.insert({ table: 'llm.spans', values: big, format: 'JSONEachRow' });
    const err = await refusal(new SpanReader(rm, 50 * KB).byIds(p3, [trace(7)], []));
    expect(err.code).toBe('result_too_large');
    expect(err.details).toEqual({ max_result_bytes: 50 * KB, estimated_bytes: 4 * 1024 * KB });
    expect(await new SpanReader(rm, 8 * 1024 * KB).byIds(p3, [trace(7)], [])).toHaveLength(4);
  });

  it('when the trace is unknown, then the read by id is empty', async () => {
    expect(await new SpanReader(rm, 50 * KB).byIds(PROJECT, [trace(404)], [])).toEqual([]);
  });

  it('when several traces together are above the bound, then the read is refused as a whole', async () => {
    const err = await refusal(new SpanReader(rm, 100 * KB).byIds(PROJECT, [trace(1), trace(2)], []));
    expect(err.code).toBe('result_too_large');
  });
});

describe('trace pages', () => {
  it('when the page\'s traces exceed the bound, then it ends after the last whole trace that fits', async () => {
    const reader = new SpanReader(rm, 30 * KB);
    const page = await reader.traceRows(PROJECT, [trace(3), trace(2), trace(1)]);
    expect(page.kept).toBe(2);
    expect(page.rows.map((r) => r.trace_id).sort()).toEqual([...Array(3).fill(trace(2)), ...Array(2).fill(trace(3))].sort());
  });

  it('when the first trace alone exceeds the bound, then the page is refused', async () => {
    const err = await refusal(new SpanReader(rm, 30 * KB).traceRows(PROJECT, [trace(1), trace(2)]));
    expect(err.code).toBe('result_too_large');
  });

  it('when every trace fits, then the page is whole', async () => {
    const page = await new SpanReader(rm, 1024 * KB).traceRows(PROJECT, [trace(3), trace(2), trace(1)]);
    expect(page.kept).toBe(3);
    expect(page.rows).toHaveLength(15);
  });
});

describe('span pages', () => {
  const search = (after?: SpanTableRow): SpanSearch => ({
    projectId: PROJECT,
    where: `project_id = {p:String}${after ? ' AND (start_time, trace_id, span_id) < ({c_t:DateTime64(6, \'UTC\')}, {c_trace:String}, {c_span:String})' : ''}`,
    orderBy: 'start_time DESC, trace_id DESC, span_id DESC', order: 'descending', limit: 100,
    params: { p: PROJECT, c_t: after?.start_time, c_trace: after?.trace_id, c_span: after?.span_id },
  });

  async function pages(maxBytes: number): Promise<SpanTableRow[][]> {
    const searcher = new SpanSearcher(rm, maxBytes);
    const out: SpanTableRow[][] = [];
    let after: SpanTableRow | undefined;
    for (let i = 0; i < 50; i++) {
      const p = await searcher.spans(search(after));
      out.push(p.rows);
      if (!p.more) return out;
      after = p.rows[p.rows.length - 1];
    }
    throw new Error('paging did not end');
  }

  it('when spans exceed the bound, then each page stops before it and paging still walks every span once', async () => {
    const got = await pages(35 * KB);
    for (const p of got) expect(p.reduce((n, r) => n + spanRowBytes(r), 0)).toBeLessThanOrEqual(35 * KB);
    // KiB, newest first: 10 + 10 + 1 + 1 + 1 + 10 = 33 | then 10 + 10 + 10 per page
    expect(got.map((p) => p.length)).toEqual([6, 3, 3, 3]);
    const ids = got.flat().map((r) => r.span_id);
    expect(ids).toHaveLength(15);
    expect(new Set(ids).size).toBe(15);
  });

  it('when one span alone exceeds the bound, then a page still holds it (paging always progresses)', async () => {
    const got = await pages(2 * KB);
    // 10 | 10 | 1 + 1 | 1 | then one 10 KiB span per page
    expect(got.map((p) => p.length)).toEqual([1, 1, 2, 1, ...Array(10).fill(1)]);
  });

  it('when everything fits, then one page holds all and says no more', async () => {
    const got = await pages(1024 * KB);
    expect(got.map((p) => p.length)).toEqual([15]);
  });
});
