// POST /spans/export and /traces/export over the real stack (issue 30, item 2): each format reads
// back whole (records counted, values checked), the query routes' filtering, windowing and saved
// queries select what is exported, another project's key sees none of it, bad input is a 4xx
// before the first byte, exports are read events, `npm run ops -- export` writes the same file,
// and a large export streams: the server's memory stays within a budget whatever the result's size,
// and a reader that stops reading stops the server (it does not buffer the rest).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { runOps } from '@llm/service-ops-cli';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { insertSyntheticSpans, streamExport } from '../support/span-export.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
const MiB = 1024 * 1024;
let t: TestApp;
let a: TestAccount;
let b: TestAccount;
let big: TestAccount;
let ch: Clickhouse;
const marker = `m-${hex(4)}`;
const traceIds = Array.from({ length: 3 }, () => hex(16));
const otherTrace = hex(16);
/** Spans of the large export: 100 pages of the span export, ~1.5 KB of JSON each (~300 MB of JSON Lines). */
const BIG = 200_000;
/** What the server may add to its RSS while exporting BIG spans: a few pages and the engine's buffers,
 * about half of what the result's bytes alone would take. */
const RSS_BUDGET = 160 * MiB;

async function call(method: string, p: string, acc: TestAccount | undefined, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string; json: () => any }> {
  const r = await fetch(`${t.baseUrl}${p}`, {
    method, headers: { ...(acc?.auth ?? {}), 'Content-Type': 'application/json', ...headers }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, json: () => JSON.parse(text) };
}
async function exported(p: string, acc: TestAccount, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const r = await fetch(`${t.baseUrl}${p}`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) };
}
const jsonl = (buf: Buffer): any[] => buf.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
const arrayBuffer = (buf: Buffer): ArrayBuffer => buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
const byMarker = { conditions: [{ field: 'attributes', key: 'tags.marker', value: marker }] };

/** RFC 4180 rows (quoted fields may hold separators, quotes and line breaks). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let f = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (q) { if (c === '"' && text[i + 1] === '"') { f += '"'; i++; } else if (c === '"') q = false; else f += c; continue; }
    if (c === '"') q = true;
    else if (c === ',') { row.push(f); f = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(f); rows.push(row); row = []; f = ''; i++; } else f += c;
  }
  return rows;
}
const csvObjects = (buf: Buffer): Array<Record<string, string>> => {
  const [header, ...rows] = csvRows(buf.toString('utf8'));
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
};

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${t.managementUrl}/metrics`)).text();
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

const now = Date.now();
const iso = (msAgo: number): string => new Date(now - msAgo).toISOString();

beforeAll(async () => {
  t = await startTestApp();
  [a, b, big] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
  // Project a: 3 traces of 4 spans (a root, two children, a grandchild), one with a CSV-hostile name.
  const spans = traceIds.flatMap((trace_id, i) => {
    const root = hex(8);
    const child = hex(8);
    const at = (k: number) => ({ start_time: iso(60_000 * (i + 1) - k * 1000), end_time: iso(60_000 * (i + 1) - k * 1000 - 500) });
    const attributes = { tags: { marker, n: i }, ag: { metrics: { tokens: { incremental: { total: 10 * (i + 1) } } } } };
    return [
      { trace_id, span_id: root, span_name: i === 0 ? 'root, "quoted"' : 'root', ...at(0), end_time: iso(60_000 * (i + 1) - 5000), attributes },
      { trace_id, span_id: child, parent_id: root, span_name: 'child', ...at(1), attributes },
      { trace_id, span_id: hex(8), parent_id: root, span_name: 'child', ...at(2), attributes },
      { trace_id, span_id: hex(8), parent_id: child, span_name: 'leaf', ...at(3), attributes },
    ];
  });
  expect((await call('POST', '/tracing/spans/ingest', a, { spans })).status).toBe(202);
  const theirs = [{ trace_id: otherTrace, span_id: hex(8), span_name: 'theirs', start_time: iso(1000), end_time: iso(500), attributes: { tags: { marker } } }];
  expect((await call('POST', '/tracing/spans/ingest', b, { spans: theirs })).status).toBe(202);
  await eventually(() => call('POST', '/spans/query', a, { filtering: byMarker, windowing: { limit: 100 } }), (x) => x.json().count === 12, 30_000);
  await eventually(() => call('POST', '/spans/query', b, { filtering: byMarker }), (x) => x.json().count === 1, 30_000);
  // The large project's spans straight into the tables the projector writes (see span-export.ts).
  ch = await openClickhouse(t.clickhouse);
  await insertSyntheticSpans(ch, big.projectId, BIG, { endUs: now * 1000, padBytes: 1000 });
});
afterAll(async () => { await ch?.close(); await t?.stop(); });

describe('formats', () => {
  it('when spans are exported as JSON Lines, then every span of the project arrives once, as /spans/query shows it', async () => {
    const r = await exported('/spans/export', a, { format: 'jsonl', filtering: byMarker });
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/x-ndjson');
    const lines = jsonl(r.bytes);
    expect(lines).toHaveLength(12);
    const q = (await call('POST', '/spans/query', a, { filtering: byMarker, windowing: { limit: 100 } })).json();
    expect(lines).toEqual(q.spans);
    expect(new Set(lines.map((s) => s.trace_id))).toEqual(new Set(traceIds));
  });

  it('when spans are exported as CSV, then a header names the flat columns and each row reads back with its values', async () => {
    const r = await exported('/spans/export', a, { format: 'csv', filtering: byMarker, windowing: { order: 'ascending' } });
    expect(r.status).toBe(200);
    expect(r.type).toBe('text/csv; charset=utf-8');
    const rows = csvObjects(r.bytes);
    expect(rows).toHaveLength(12);
    expect(Object.keys(rows[0]!).slice(0, 3)).toEqual(['trace_id', 'span_id', 'parent_id']);
    const quoted = rows.find((x) => x.span_name!.startsWith('root,'))!;
    expect(quoted.span_name).toBe('root, "quoted"');
    expect(quoted.trace_id).toBe(traceIds[0]);
    expect(quoted.parent_id).toBe('');
    expect(quoted.duration_ms).toBe('5000');
    expect(JSON.parse(quoted.attributes!).tags).toEqual({ marker, n: 0 });
    // Ascending: oldest first (the third trace's spans are the oldest).
    expect(rows[0]!.trace_id).toBe(traceIds[2]);
    expect(rows.map((x) => x.start_time)).toEqual([...rows.map((x) => x.start_time)].sort());
  });

  it('when spans are exported as Parquet, then the file reads back with typed columns', async () => {
    const r = await exported('/spans/export', a, { format: 'parquet', filtering: byMarker });
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/vnd.apache.parquet');
    const file = arrayBuffer(r.bytes);
    expect(Number(parquetMetadata(file).num_rows)).toBe(12);
    const rows = await parquetReadObjects({ file });
    expect(rows.map((x) => x.span_id).sort()).toEqual(jsonl((await exported('/spans/export', a, { filtering: byMarker })).bytes).map((s) => s.span_id).sort());
    const leaf = rows.find((x) => x.span_name === 'leaf' && x.trace_id === traceIds[1])!;
    expect(leaf.start_time).toBeInstanceOf(Date);
    expect(leaf.tokens_incremental_total).toBe(20);
    expect(typeof leaf.duration_ms).toBe('number');
  });

  it('when traces are exported, then JSON Lines holds one canonical trace a line and CSV the spans of those traces', async () => {
    const lines = jsonl((await exported('/traces/export', a, { filtering: { conditions: [{ field: 'span_name', value: 'leaf' }, ...byMarker.conditions] } })).bytes);
    expect(lines.map((x) => x.trace_id).sort()).toEqual([...traceIds].sort());
    const q = (await call('POST', '/traces/query', a, { filtering: byMarker })).json();
    expect(lines).toEqual(q.traces);
    const csv = csvObjects((await exported('/traces/export', a, { format: 'csv', filtering: byMarker, windowing: { limit: 1 } })).bytes);
    expect(csv).toHaveLength(12);
  });

  it('when nothing matches, then each format is still a whole, empty file', async () => {
    const none = { conditions: [{ field: 'span_name', value: `absent-${hex(4)}` }] };
    expect((await exported('/spans/export', a, { filtering: none })).bytes).toHaveLength(0);
    expect(csvRows((await exported('/spans/export', a, { format: 'csv', filtering: none })).bytes.toString())).toHaveLength(1);
    const pq = await exported('/traces/export', a, { format: 'parquet', filtering: none });
    expect(Number(parquetMetadata(arrayBuffer(pq.bytes)).num_rows)).toBe(0);
  });
});

describe('what is exported', () => {
  it('when the export names a window, a filter or a saved query, then it holds exactly what that query matches', async () => {
    const windowed = jsonl((await exported('/spans/export', a, { filtering: byMarker, windowing: { oldest: iso(90_000), newest: iso(30_000) } })).bytes);
    expect(new Set(windowed.map((s) => s.trace_id))).toEqual(new Set([traceIds[0]]));
    const leaves = jsonl((await exported('/spans/export', a, { filtering: { conditions: [{ field: 'span_name', value: 'leaf' }, ...byMarker.conditions] } })).bytes);
    expect(leaves.map((s) => s.span_name)).toEqual(['leaf', 'leaf', 'leaf']);
    const slug = hex(8);
    const saved = await call('POST', '/simple/queries/', a, { query: { slug, name: slug, data: { filtering: { conditions: [{ field: 'span_name', value: 'child' }, ...byMarker.conditions] } } } });
    expect(saved.status).toBe(200);
    const children = jsonl((await exported('/spans/export', a, { query_ref: { slug } })).bytes);
    expect(children).toHaveLength(6);
    expect(new Set(children.map((s) => s.span_name))).toEqual(new Set(['child']));
  });

  it('when another project exports with the same filter, then it gets its own spans and none of the first project', async () => {
    const theirs = jsonl((await exported('/spans/export', b, { filtering: byMarker })).bytes);
    expect(theirs.map((s) => s.trace_id)).toEqual([otherTrace]);
    const asked = jsonl((await exported('/traces/export', b, { filtering: { conditions: [{ field: 'trace_id', value: traceIds[0] }] } })).bytes);
    expect(asked).toEqual([]);
    const everything = csvObjects((await exported('/spans/export', b, { format: 'csv' })).bytes);
    expect(everything.map((x) => x.trace_id)).toEqual([otherTrace]);
  });
});

describe('bad input', () => {
  it('when the format, the window or the filter is bad, or no key is given, then a 4xx answers before any byte of a file', async () => {
    const badFormat = await call('POST', '/spans/export', a, { format: 'xlsx' });
    expect(badFormat.status).toBe(422);
    expect(badFormat.json().detail[0].loc).toEqual(['body', 'format']);
    const badWindow = await call('POST', '/traces/export', a, { windowing: { order: 'sideways' } });
    expect(badWindow.status).toBe(422);
    expect(badWindow.json().detail[0].loc).toEqual(['body', 'windowing', 'order']);
    const badFilter = await call('POST', '/spans/export', a, { filtering: { conditions: [{ field: 'span_name', operator: 'frobnicates', value: 'x' }] } });
    expect(badFilter.status).toBe(400);
    expect((await call('POST', '/spans/export', a, [1, 2])).status).toBe(422);
    expect((await call('POST', '/spans/export', a, { query_ref: { slug: `missing-${hex(4)}` } })).status).toBe(404);
    expect((await call('POST', '/spans/export', undefined, {})).status).toBe(401);
  });
});

describe('read events', () => {
  it('when a project exports, then the events log records it as traces read, marked as an export', async () => {
    const requestId = randomUUID();
    expect((await exported('/traces/export', a, { format: 'csv', filtering: byMarker }, { 'x-request-id': requestId })).status).toBe(200);
    const evs = await eventually(
      async () => (await call('POST', '/events/query', a, { event: { request_id: requestId } })).json().events as Array<{ event_type: string; attributes: Record<string, any> }>,
      (x) => x.length > 0, 30_000,
    );
    expect(evs).toHaveLength(1);
    expect(evs[0]!.event_type).toBe('traces.queried');
    expect(evs[0]!.attributes).toMatchObject({ count: 3, export: { format: 'csv', focus: 'trace' }, user_id: a.userId });
    expect([...evs[0]!.attributes.trace_ids].sort()).toEqual([...traceIds].sort());
  });
});

describe('npm run ops -- export', () => {
  it('when the operator exports to a file, then the file holds what the route streams, and a refused export leaves no file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ops-export-'));
    try {
      const out = path.join(dir, 'spans.csv');
      const env = { BASE_URL: t.baseUrl, OPS_API_KEY: a.apiKey };
      const stdout: string[] = [];
      const io = { stdout: async (s: string) => { stdout.push(s); }, stderr: () => undefined };
      expect(await runOps(['export', 'spans', '--out', out, '--format', 'csv', '--body', JSON.stringify({ filtering: byMarker }), '--json'], env, io)).toBe(0);
      expect(JSON.parse(stdout.join(''))).toMatchObject({ file: out, kind: 'spans', format: 'csv', records: 12 });
      const viaRoute = (await exported('/spans/export', a, { format: 'csv', filtering: byMarker })).bytes;
      expect(csvObjects(await readFile(out)).map((x) => x.span_id).sort()).toEqual(csvObjects(viaRoute).map((x) => x.span_id).sort());
      const refused = path.join(dir, 'refused.jsonl');
      expect(await runOps(['export', 'traces', '--out', refused, '--body', '{"windowing":{"order":"sideways"}}'], env, io)).toBe(1);
      await expect(readFile(refused)).rejects.toThrow(/ENOENT/);
      await expect(readFile(`${refused}.partial`)).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a large export', () => {
  // The engine's first read of the data and the first pages' code paths cost memory once, whatever
  // the export: paid here, so the budget below measures what an export holds.
  beforeAll(async () => {
    expect((await streamExport(t.baseUrl, big.auth, '/spans/export', { format: 'parquet' })).status).toBe(200);
  }, 60_000);

  it.each(['jsonl', 'csv', 'parquet'] as const)('when %s of many spans is read at full speed, then every span arrives and the server stays within its memory budget', async (format) => {
    // Enough of the tail for the Parquet footer (a row group's metadata per page).
    const r = await streamExport(t.baseUrl, big.auth, '/spans/export', { format }, { keep: 2 * MiB });
    expect(r.status).toBe(200);
    expect(Number(r.headers['x-export-estimated-rows'])).toBe(BIG);
    if (format === 'jsonl') {
      expect(r.lines).toBe(BIG);
      const newest = JSON.parse(r.head.toString('utf8').split('\n')[0]!);
      expect(newest).toMatchObject({ span_name: `span-${(BIG - 1) % 10}`, attributes: { ag: { data: { inputs: { n: BIG - 1 } } } } });
      const oldest = JSON.parse(r.tail.toString('utf8').trimEnd().split('\n').at(-1)!);
      expect(oldest).toMatchObject({ span_name: 'span-0', attributes: { ag: { data: { inputs: { n: 0 } } } } });
    } else if (format === 'csv') {
      expect(r.lines).toBe(BIG + 1);
    } else {
      // The footer (at the end of the file) counts the rows: read it from the kept tail.
      expect(r.tail.subarray(-4).toString('latin1')).toBe('PAR1');
      const footer = r.tail.readUInt32LE(r.tail.length - 8);
      const meta = parquetMetadata(arrayBuffer(r.tail.subarray(r.tail.length - 8 - footer)));
      expect(Number(meta.num_rows)).toBe(BIG);
    }
    expect(r.peakRss - r.startRss).toBeLessThan(RSS_BUDGET);
  });

  it('when the reader stops reading, then the server stops after the pages the connection holds, and goes on once it reads again', async () => {
    const before = await metric('query_export_records_total');
    let paused = false;
    let writtenWhilePaused = 0;
    const r = await streamExport(t.baseUrl, big.auth, '/spans/export', { format: 'jsonl' }, {
      onProgress: async () => {
        if (paused) return;
        paused = true;
        // Wait until the server has stopped writing (two readings of its counter agree), not for a time.
        let last = -1;
        writtenWhilePaused = await eventually(async () => {
          const now = (await metric('query_export_records_total')) - before;
          const settled = now === last;
          last = now;
          await new Promise((res) => setTimeout(res, 250));
          return settled ? now : -1;
        }, (x) => x >= 0, 30_000);
      },
    });
    expect(writtenWhilePaused).toBeGreaterThan(0);
    expect(writtenWhilePaused).toBeLessThan(BIG / 2);
    expect(r.lines).toBe(BIG);
  });
});
