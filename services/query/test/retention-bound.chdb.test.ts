// Retention (issue 30) on the read side: every read of the span table and of the events log carries
// its project's horizon, so a span or event past it is invisible at once, before any purge ran; a read
// that forgets the bound is refused, never answered. Run on chDB against the migrated tables.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetentionHorizon } from '@llm/access';
import { migrateClickhouse, openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { AppError } from '@llm/errors';
import { tableTime, type SpanTableRow } from '@llm/span-table';
import { ActivitySearcher } from '../src/adapters/activity-search.ts';
import { EventReader } from '../src/adapters/event-reader.ts';
import { ReadModel, SpanReader } from '@llm/span-read';
import { SpanSearcher } from '@llm/span-read';

const SPAN_MIGRATIONS = path.resolve(import.meta.dirname, '../../projector-spans/migrations/');
const EVENT_MIGRATIONS = path.resolve(import.meta.dirname, '../../projector-events/migrations/');
const SHORT = 'p-short';
const KEPT = 'p-kept';
const HOUR_US = 3_600_000_000;
const NOW_US = Date.now() * 1000;
/** SHORT keeps one day; KEPT keeps everything. */
const HORIZON: Record<string, RetentionHorizon> = { [SHORT]: { spansFromUs: NOW_US - 24 * HOUR_US, eventsFromUs: NOW_US - 24 * HOUR_US }, [KEPT]: {} };

const hex = (n: number, len: number): string => n.toString(16).padStart(len, '0');

function span(project: string, traceN: number, spanN: number, startUs: number, session: string): SpanTableRow {
  return {
    project_id: project, trace_id: hex(traceN, 32), span_id: hex(spanN, 16), parent_id: '', span_name: 's', span_kind: 'SPAN_KIND_INTERNAL',
    span_type: 'task', trace_type: 'invocation', status_code: 'STATUS_CODE_UNSET', status_message: '',
    start_time: tableTime(startUs), end_time: tableTime(startUs + 10), duration_ms: 0.01,
    attributes: JSON.stringify({ ag: { session: { id: session } } }), events: '[]', links: '[]', references: '[]', hashes: '[]', session_id: session, user_id: '',
    tokens_incremental: {}, costs_incremental: {}, errors_incremental: 0, tokens_cumulative: {}, costs_cumulative: {}, errors_cumulative: 0,
    created_at: tableTime(NOW_US), version: '1', is_deleted: 0,
  };
}

// In each project: trace 1 two days old (session "old"), trace 2 an hour old (session "new"), and
// trace 3 spanning both (one span two days old, one an hour old; session "both").
const rowsOf = (p: string, base: number): SpanTableRow[] => [
  span(p, base + 1, base + 11, NOW_US - 48 * HOUR_US, 'old'),
  span(p, base + 2, base + 21, NOW_US - HOUR_US, 'new'),
  span(p, base + 3, base + 31, NOW_US - 48 * HOUR_US, 'both'),
  span(p, base + 3, base + 32, NOW_US - HOUR_US, 'both'),
];
const ROWS = [...rowsOf(SHORT, 0), ...rowsOf(KEPT, 100)];

let dir: string;
let ch: Clickhouse;
let rm: ReadModel;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'query-retention-'));
  ch = await openClickhouse({ dataDir: dir, database: 'llm' });
  await migrateClickhouse(ch, SPAN_MIGRATIONS);
  await migrateClickhouse(ch, EVENT_MIGRATIONS);
  const traces = new Map<string, SpanTableRow[]>();
  for (const r of ROWS) traces.set(`${r.project_id}|${r.trace_id}`, [...(traces.get(`${r.project_id}|${r.trace_id}`) ?? []), r]);
  const index = [...traces.values()].map((rs) => {
    const starts = rs.map((r) => r.start_time).sort();
    return { project_id: rs[0]!.project_id, trace_id: rs[0]!.trace_id, first_start: starts[0], last_start: starts[starts.length - 1] };
  });
  await ch.client.insert({ table: 'llm.trace_index', values: index, format: 'JSONEachRow' });
  await ch.client.insert({ table: 'llm.spans', values: ROWS, format: 'JSONEachRow' });
  const event = (project: string, id: string, us: number) => ({
    project_id: project, timestamp: tableTime(us), event_id: id, request_id: id, request_type: 'r', event_type: 'traces.fetched',
    status_code: 'STATUS_CODE_OK', status_message: '', attributes: '{}', created_at: tableTime(us),
  });
  await ch.client.insert({
    table: 'llm.platform_events', format: 'JSONEachRow',
    values: [event(SHORT, 'e-old', NOW_US - 48 * HOUR_US), event(SHORT, 'e-new', NOW_US - HOUR_US), event(KEPT, 'k-old', NOW_US - 48 * HOUR_US)],
  });
  rm = new ReadModel(ch, 10_000, async (p) => HORIZON[p] ?? {});
}, 60_000);
afterAll(async () => { await ch?.close(); if (dir) rmSync(dir, { recursive: true, force: true }); });

const ids = (rows: Array<{ span_id: string }>): string[] => rows.map((r) => r.span_id).sort();

describe('retention bound on reads', () => {
  it('when spans are read by trace id, then those past the project\'s horizon are absent, a project keeping everything sees all', async () => {
    const reader = new SpanReader(rm);
    expect(await reader.byIds(SHORT, [hex(1, 32)], [])).toEqual([]);
    expect(ids(await reader.byIds(SHORT, [hex(2, 32), hex(3, 32)], []))).toEqual([hex(21, 16), hex(32, 16)]);
    expect(ids(await reader.byIds(KEPT, [hex(101, 32), hex(103, 32)], []))).toEqual([hex(111, 16), hex(131, 16), hex(132, 16)]);
    expect((await reader.traceRows(SHORT, [hex(1, 32), hex(3, 32)])).rows.map((r) => r.span_id)).toEqual([hex(32, 16)]);
  });

  it('when spans and traces are searched, then nothing past the horizon is found', async () => {
    const searcher = new SpanSearcher(rm);
    const base = { projectId: SHORT, where: 'project_id = {p:String}', params: { p: SHORT }, limit: 100 };
    const spans = await searcher.spans({ ...base, orderBy: 'start_time DESC, trace_id DESC, span_id DESC', order: 'descending' });
    expect(ids(spans.rows)).toEqual([hex(21, 16), hex(32, 16)]);
    const byTrace = { ...base, having: '1', traceKey: 'max(start_time)' };
    const newest = await searcher.traces({ ...byTrace, orderBy: 'trace_key DESC, trace_id DESC', order: 'descending' });
    expect(newest.map((t) => t.trace_id).sort()).toEqual([hex(2, 32), hex(3, 32)]);
    const oldest = await searcher.traces({ ...byTrace, orderBy: 'trace_key ASC, trace_id ASC', order: 'ascending' });
    expect(oldest.map((t) => t.trace_id).sort()).toEqual([hex(2, 32), hex(3, 32)]);
  });

  it('when sessions are listed, then a session whose spans all expired is gone and one with a retained span starts there', async () => {
    const reader = new SpanReader(rm);
    const activity = new ActivitySearcher(rm, reader);
    for (const realtime of [false, true]) {
      const rows = await activity.activity({ projectId: SHORT, kind: 'session', realtime, order: 'ascending', limit: 10 });
      expect(rows.map((r) => [r.id, Number(r.activity_us)])).toEqual([['both', NOW_US - HOUR_US], ['new', NOW_US - HOUR_US]]);
    }
    const kept = await activity.activity({ projectId: KEPT, kind: 'session', realtime: false, order: 'ascending', limit: 10 });
    expect(kept.map((r) => r.id).sort()).toEqual(['both', 'new', 'old']);
    // The windowed (exact) path too.
    const windowed = await activity.activity({ projectId: SHORT, kind: 'session', realtime: false, oldestUs: NOW_US - 72 * HOUR_US, order: 'ascending', limit: 10 });
    expect(windowed.map((r) => r.id)).toEqual(['both', 'new']);
  });

  it('when events are read, then those past the horizon are absent, by query and by id', async () => {
    const events = new EventReader(rm);
    const page = await events.query({ projectId: SHORT, order: 'desc', limit: 10, maxBytes: 1 << 20 });
    expect(page.map((e) => e.event_id)).toEqual(['e-new']);
    expect(await events.timeOf(SHORT, 'e-old')).toBeUndefined();
    expect(await events.timeOf(KEPT, 'k-old')).toBe(NOW_US - 48 * HOUR_US);
  });

  it('when a query reads the span table or the events log without the retention bound, then it is refused before it runs', async () => {
    await expect(rm.run('SELECT count() FROM llm.spans WHERE project_id = {p:String}', { p: SHORT })).rejects.toThrow(/retention bound/);
    await expect(rm.run('SELECT count() FROM llm.platform_events', {})).rejects.toThrow(/retention bound/);
  });

  it('when the horizon cannot be read, then the read fails as unavailable (503), never unbounded', async () => {
    const broken = new ReadModel(ch, 10_000, async () => { throw new Error('postgres down'); });
    const err = await new SpanReader(broken).byIds(SHORT, [hex(2, 32)], []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).kind).toBe('unavailable');
  });
});
