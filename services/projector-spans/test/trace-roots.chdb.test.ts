// The roots table (migration 0006) answers what the span table answers for its roots: after any
// sequence of trace events written through the projector's own transition and writer, `trace_roots
// FINAL` holds exactly the rows of `spans FINAL WHERE is_root = 1` — roots added, re-rolled, moved,
// given a parent under the same key, replaced away and deleted. Run on chDB with the migrations.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickhouse, openClickhouse, type Clickhouse } from '@llm/clickhouse';
import type { DecodedEvent, SpanRecord } from '@llm/events';
import { spanTables } from '@llm/span-table';
import { applyTraceEvent, type TraceRows } from '../src/domain/trace-state.ts';
import { insertSpanRows } from '../src/adapters/span-table-writer.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../migrations/');
const tables = spanTables();
let dir: string;
let ch: Clickhouse;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'trace-roots-'));
  ch = await openClickhouse({ dataDir: dir, database: 'llm' });
  await migrateClickhouse(ch, MIGRATIONS);
}, 60_000);
afterAll(async () => { await ch?.close(); if (dir) rmSync(dir, { recursive: true, force: true }); });

const T0 = 1_700_000_000_000_000;
const rec = (trace: string, span_id: string, parent_id = '', at = 0, tokens: Record<string, number> = {}): SpanRecord => ({
  trace_id: trace, span_id, parent_id, span_name: span_id, span_kind: 'SPAN_KIND_INTERNAL', span_type: 'task', trace_type: 'invocation',
  status_code: 'STATUS_CODE_UNSET', status_message: '', start_time_us: T0 + at, end_time_us: T0 + at + 500_000,
  attributes_json: '{}', events_json: '[]', links_json: '', references_json: '[]', hashes_json: '[]', session_id: '', user_id: '',
  tokens_incremental: tokens, costs_incremental: {}, errors_incremental: 0, duration_ms: 500,
});
type Kind = 'tracing.spans.upserted' | 'tracing.trace.replaced' | 'tracing.trace.deleted';
type TraceEvent = DecodedEvent<'tracing.spans.upserted'> | DecodedEvent<'tracing.trace.replaced'> | DecodedEvent<'tracing.trace.deleted'>;
const event = <T extends Kind>(project: string, trace: string, type: T, spans: SpanRecord[] = []): DecodedEvent<T> => ({
  eventId: 'e', type, schemaVersion: 1, projectId: project, organizationId: '', timeUs: T0, requestId: '', actorId: '', aggregateId: trace,
  expectedVersion: 0, payload: (type === 'tracing.trace.deleted' ? { trace_id: trace } : { trace_id: trace, spans }) as DecodedEvent<T>['payload'],
});

const state = new Map<string, TraceRows>();
let offset = 100n;

/** Applies the events in order through the projector's transition and writer, one batch each. */
async function project(events: TraceEvent[], into: Clickhouse = ch): Promise<void> {
  for (const e of events) {
    const key = `${e.projectId}:${e.payload.trace_id}`;
    const t = applyTraceEvent(state.get(key) ?? new Map(), e, offset++);
    state.set(key, t.next);
    await insertSpanRows(into, tables, t.writes);
  }
}

async function keys(query: string, projectId: string): Promise<string[]> {
  const res = await ch.client.query({ query, query_params: { p: projectId }, format: 'JSONEachRow' });
  return (await res.json<{ k: string }>()).map((r) => r.k).sort();
}
const rootsOf = (p: string) => keys(`SELECT concat(trace_id, '/', span_id, '@', toString(start_time), ' v', toString(version), ' t', toString(tokens_cumulative['total'])) AS k FROM llm.${tables.roots} FINAL WHERE project_id = {p:String}`, p);
const spanRootsOf = (p: string) => keys(`SELECT concat(trace_id, '/', span_id, '@', toString(start_time), ' v', toString(version), ' t', toString(tokens_cumulative['total'])) AS k FROM llm.${tables.spans} FINAL WHERE project_id = {p:String} AND is_root = 1`, p);

describe('the roots table', () => {
  it('when roots are written, re-rolled by a later child and moved in time, then it holds the span table\'s current roots', async () => {
    const p = 'p-roots-1';
    await project([
      event(p, 't1', 'tracing.spans.upserted', [rec('t1', 'a'), rec('t1', 'b', 'a', 10, { total: 2 })]),
      event(p, 't1', 'tracing.spans.upserted', [rec('t1', 'c', 'a', 20, { total: 3 })]),
      event(p, 't2', 'tracing.spans.upserted', [rec('t2', 'r')]),
      event(p, 't2', 'tracing.spans.upserted', [rec('t2', 'r', '', 5_000_000)]),
    ]);
    const roots = await rootsOf(p);
    expect(roots).toEqual(await spanRootsOf(p));
    expect(roots).toHaveLength(2);
    expect(roots.find((k) => k.startsWith('t1/a'))).toContain(' t5');
    // Only roots are copied.
    const all = await keys(`SELECT span_id AS k FROM llm.${tables.roots} WHERE project_id = {p:String}`, p);
    expect(all.every((k) => k === 'a' || k === 'r')).toBe(true);
  });

  it('when a root gains a parent under the same key, then it leaves the roots table, and one that loses it enters', async () => {
    const p = 'p-roots-2';
    await project([
      event(p, 't1', 'tracing.spans.upserted', [rec('t1', 'a'), rec('t1', 'b', '', 10)]),
      event(p, 't1', 'tracing.spans.upserted', [rec('t1', 'b', 'a', 10)]),
    ]);
    expect(await rootsOf(p)).toEqual(await spanRootsOf(p));
    expect((await rootsOf(p)).map((k) => k.split('@')[0])).toEqual(['t1/a']);
    await project([event(p, 't1', 'tracing.spans.upserted', [rec('t1', 'b', '', 10)])]);
    expect((await rootsOf(p)).map((k) => k.split('@')[0])).toEqual(['t1/a', 't1/b']);
  });

  it('when a trace is replaced without its root, or deleted, then its roots leave the roots table', async () => {
    const p = 'p-roots-3';
    await project([
      event(p, 't1', 'tracing.spans.upserted', [rec('t1', 'a'), rec('t1', 'b', 'a', 10)]),
      event(p, 't1', 'tracing.trace.replaced', [rec('t1', 'x'), rec('t1', 'b', 'x', 10)]),
      event(p, 't2', 'tracing.spans.upserted', [rec('t2', 'r')]),
      event(p, 't2', 'tracing.trace.deleted'),
    ]);
    expect(await rootsOf(p)).toEqual(await spanRootsOf(p));
    expect((await rootsOf(p)).map((k) => k.split('@')[0])).toEqual(['t1/x']);
  });

  it('when the replaced trace keeps a span id that was its root but now has a parent, then it leaves the roots table', async () => {
    const p = 'p-roots-4';
    await project([
      event(p, 't1', 'tracing.spans.upserted', [rec('t1', 'a')]),
      event(p, 't1', 'tracing.trace.replaced', [rec('t1', 'z', '', 50), rec('t1', 'a', 'z')]),
    ]);
    expect(await rootsOf(p)).toEqual(await spanRootsOf(p));
    expect((await rootsOf(p)).map((k) => k.split('@')[0])).toEqual(['t1/z']);
  });

  it('when the span table held roots before the migration, then the migration copies the current ones', async () => {
    // A database migrated up to 0005, written by the span table's writer of that time (no roots table).
    const oldMigrations = mkdtempSync(path.join(tmpdir(), 'trace-roots-migrations-'));
    for (const f of readdirSync(MIGRATIONS).filter((f) => f < '0006')) copyFileSync(path.join(MIGRATIONS, f), path.join(oldMigrations, f));
    const db = await openClickhouse({ dataDir: dir, database: 'llm_old' });
    try {
      await migrateClickhouse(db, oldMigrations);
      const p = 'p-roots-5';
      const writes = [
        ...applyTraceEvent(new Map(), event(p, 't1', 'tracing.spans.upserted', [rec('t1', 'a'), rec('t1', 'b', 'a', 10)]), 1n).writes,
        ...applyTraceEvent(new Map(), event(p, 't2', 'tracing.spans.upserted', [rec('t2', 'gone')]), 2n).writes,
      ];
      const gone = { ...writes.find((w) => w.span_id === 'gone')!, version: '3', is_deleted: 1 };
      await db.client.insert({ table: 'llm_old.spans', values: [...writes, gone], format: 'JSONEachRow' });
      expect(await migrateClickhouse(db, MIGRATIONS)).toEqual(readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f >= '0006'));
      const res = await db.client.query({ query: `SELECT span_id FROM llm_old.${tables.roots} FINAL ORDER BY span_id`, format: 'JSONEachRow' });
      expect((await res.json<{ span_id: string }>()).map((r) => r.span_id)).toEqual(['a']);
    } finally {
      await db.close();
      rmSync(oldMigrations, { recursive: true, force: true });
    }
  });
});
