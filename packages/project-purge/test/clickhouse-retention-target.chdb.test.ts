// The retention purge's ClickHouse target (issue 30) on the real, migrated tables (the span table
// has projections, which rule out lightweight deletes): rows older than each project's cutoff go,
// newer rows and other projects stay, and a pass with nothing due rewrites nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickhouse, openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { clickhouseRetentionTarget } from '../src/index.ts';

const SPAN_MIGRATIONS = path.resolve(import.meta.dirname, '../../../services/projector-spans/migrations/');
const EVENT_MIGRATIONS = path.resolve(import.meta.dirname, '../../../services/projector-events/migrations/');
const DAY_US = 86_400_000_000;
const NOW_US = Date.UTC(2026, 5, 1) * 1000;
const iso = (us: number): string => new Date(us / 1000).toISOString().replace('T', ' ').replace('Z', '');

let dir: string;
let ch: Clickhouse;

const count = async (sql: string): Promise<number> => {
  const r = await ch.client.query({ query: sql, format: 'JSONEachRow' });
  return Number((await r.json<{ n: string }>())[0]!.n);
};
const mutations = (table: string): Promise<number> => count(`SELECT count() AS n FROM system.mutations WHERE database = 'llm' AND table = '${table}'`);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'retention-target-'));
  ch = await openClickhouse({ dataDir: dir, database: 'llm' });
  await migrateClickhouse(ch, SPAN_MIGRATIONS);
  await migrateClickhouse(ch, EVENT_MIGRATIONS);
  // Projects a and b: one span 10 days old and one 1 day old each; c: one 10 days old.
  const span = (p: string, n: number, ageDays: number) => ({
    project_id: p, trace_id: String(n).padStart(32, '0'), span_id: String(n).padStart(16, '0'), start_time: iso(NOW_US - ageDays * DAY_US),
    end_time: iso(NOW_US - ageDays * DAY_US), created_at: iso(NOW_US), version: 1, is_deleted: 0, attributes: '{}',
  });
  const spans = [span('a', 1, 10), span('a', 2, 1), span('b', 3, 10), span('b', 4, 1), span('c', 5, 10)];
  await ch.client.insert({ table: 'llm.spans', values: spans, format: 'JSONEachRow' });
  await ch.client.insert({
    table: 'llm.trace_index', format: 'JSONEachRow',
    values: spans.map((s) => ({ project_id: s.project_id, trace_id: s.trace_id, first_start: s.start_time, last_start: s.start_time })),
  });
  await ch.client.insert({
    table: 'llm.platform_events', format: 'JSONEachRow',
    values: [{ project_id: 'a', timestamp: iso(NOW_US - 10 * DAY_US), event_id: 'e1' }, { project_id: 'a', timestamp: iso(NOW_US - DAY_US), event_id: 'e2' }],
  });
}, 60_000);
afterAll(async () => { await ch?.close(); if (dir) rmSync(dir, { recursive: true, force: true }); });

describe('ClickHouse retention target', () => {
  it('when projects have cutoffs, then their older rows leave spans, trace_index and platform_events, and the rest stays', async () => {
    const cutoffs = [{ projectId: 'a', beforeUs: NOW_US - 7 * DAY_US }, { projectId: 'b', beforeUs: NOW_US - 7 * DAY_US }];
    expect(await clickhouseRetentionTarget(ch, 'spans', 'start_time', 'spans').purge(cutoffs)).toBe(2);
    expect(await clickhouseRetentionTarget(ch, 'trace_index', 'last_start', 'spans').purge(cutoffs)).toBe(2);
    expect(await clickhouseRetentionTarget(ch, 'platform_events', 'timestamp', 'events').purge(cutoffs)).toBe(1);
    expect(await count('SELECT count() AS n FROM llm.spans')).toBe(3);
    expect(await count("SELECT count() AS n FROM llm.spans WHERE project_id = 'c'")).toBe(1);
    expect(await count('SELECT count() AS n FROM llm.trace_index')).toBe(3);
    expect(await count("SELECT count() AS n FROM llm.platform_events WHERE event_id = 'e2'")).toBe(1);
    expect(await count('SELECT count() AS n FROM llm.platform_events')).toBe(1);
  });

  it('when nothing is older than the cutoffs, then no mutation runs', async () => {
    const before = await mutations('spans');
    expect(await clickhouseRetentionTarget(ch, 'spans', 'start_time', 'spans').purge([{ projectId: 'a', beforeUs: NOW_US - 7 * DAY_US }])).toBe(0);
    expect(await mutations('spans')).toBe(before);
  });

  it('when a table or column name is not a plain identifier, then the target is refused', () => {
    expect(() => clickhouseRetentionTarget(ch, 'spans; DROP TABLE x', 'start_time', 'spans')).toThrow(/bad table/);
  });
});
