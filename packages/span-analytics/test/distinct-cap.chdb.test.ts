// Frequency maps are capped per bucket: a high-cardinality path returns the MAX_DISTINCT_VALUES most
// frequent values, marked `truncated` with the rest summed in `other`, computed on chDB.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickhouse, openClickhouse, type Clickhouse } from '@llm/clickhouse';

import {
  MAX_DISTINCT_VALUES,
  buildAnalyticsQuery,
  compileScope,
  paramValues,
  parseSpecs,
  planBuckets,
  planSpecs,
  shapeAnalytics,
  type AnalyticsBucket,
  type AnalyticsQueryOptions,
  type BucketPlan,
} from '../src/index.ts';
import { NEWEST, OLDEST, PROJECT, s, toRow, type AnalyticsFixtureSpan } from './fixtures/analytics-rows.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../services/projector-spans/migrations/');
const TABLE = 'llm.spans';
const us = (iso: string): number => Date.parse(iso) * 1000;
const PLAN: BucketPlan = planBuckets({ oldestUs: us(OLDEST), newestUs: us(NEWEST) }, 60);

const UNIQUE = 1500;
const trace = (n: number): string => n.toString(16).padStart(32, '0');

// Bucket 0: 'hot' ×5, 'warm' ×3 and UNIQUE values seen once; token totals 7 ×4 and UNIQUE distinct
// others; labels ['a','b','c'] on the hot spans. Bucket 1: two spans, two values (never cut).
function fixture(): AnalyticsFixtureSpan[] {
  const out: AnalyticsFixtureSpan[] = [];
  let n = 0;
  const add = (bucket: number, id: string, total: number, labels?: string[]): void => {
    n++;
    const sec = String(n % 60).padStart(2, '0');
    out.push({
      trace_id: trace(n), span_id: s(n), start_time: `2024-01-01 00:0${bucket}:${sec}.${String(n).padStart(6, '0')}`,
      attributes: { tags: { id, ...(labels ? { labels } : {}) } },
      tokens_cumulative: { total },
    });
  };
  for (let i = 0; i < 5; i++) add(0, 'hot', 7, ['a', 'b', 'c']);
  for (let i = 0; i < 3; i++) add(0, 'warm', 1_000_000 + i);
  for (let i = 0; i < UNIQUE; i++) add(0, `id-${String(i).padStart(5, '0')}`, 2_000_000 + i);
  add(1, 'x', 1);
  add(1, 'y', 2);
  return out;
}

let dir: string;
let ch: Clickhouse;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'span-analytics-cap-'));
  ch = await openClickhouse({ dataDir: dir, database: 'llm' });
  await migrateClickhouse(ch, MIGRATIONS);
  await ch.client.insert({ table: TABLE, values: fixture().map(toRow), format: 'JSONEachRow' });
}, 60_000);

afterAll(async () => {
  await ch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function analytics(specs: unknown, options: AnalyticsQueryOptions = {}): Promise<AnalyticsBucket[]> {
  const parsed = parseSpecs(specs);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const r = compileScope({ filter: undefined, focus: 'trace', window: PLAN }, { projectParam: 'a_project' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  const scope = { where: r.scope.where, params: { ...r.scope.params, a_project: { type: 'String', value: PROJECT } } };
  const planned = planSpecs(parsed.specs);
  const st = buildAnalyticsQuery(TABLE, scope, PLAN, planned, options)!;
  const res = await ch.client.query({ query: st.sql, query_params: paramValues(st.params), format: 'JSONEachRow' });
  return shapeAnalytics(await res.json<Record<string, unknown>>(), PLAN, planned);
}

const metric = (b: AnalyticsBucket[], i: number, key: string): Record<string, unknown> =>
  b[i]!.metrics[key] as unknown as Record<string, unknown>;

describe('distinct values per bucket are capped', () => {
  it('when a categorical path has more distinct values than the cap, then the most frequent come back, marked truncated, the rest in other', async () => {
    const b = await analytics([{ type: 'categorical/single', path: 'tags.id' }]);
    const m = metric(b, 0, 'attributes.tags.id');
    const freq = m.freq as Array<{ value: string; count: number; density: number }>;
    const total = 5 + 3 + UNIQUE;
    expect(MAX_DISTINCT_VALUES).toBe(1000);
    expect(m.count).toBe(total);
    expect(freq).toHaveLength(MAX_DISTINCT_VALUES);
    expect(m.uniq).toHaveLength(MAX_DISTINCT_VALUES);
    // Most frequent first, ties by value: the kept singletons are the smallest ids.
    expect(freq.slice(0, 3)).toEqual([
      { value: 'hot', count: 5, density: Math.round((5 / total) * 1e5) / 1e5 },
      { value: 'warm', count: 3, density: Math.round((3 / total) * 1e5) / 1e5 },
      { value: 'id-00000', count: 1, density: Math.round((1 / total) * 1e5) / 1e5 },
    ]);
    expect(freq[MAX_DISTINCT_VALUES - 1]!.value).toBe(`id-${String(MAX_DISTINCT_VALUES - 3).padStart(5, '0')}`);
    const left = UNIQUE - (MAX_DISTINCT_VALUES - 2);
    expect(m.truncated).toBe(true);
    expect(m.other).toEqual({ values: left, count: left, density: Math.round((left / total) * 1e5) / 1e5 });
    // The other bucket is small: whole, no marker.
    expect(metric(b, 1, 'attributes.tags.id')).toEqual({
      type: 'categorical/single', count: 2,
      freq: [{ value: 'x', count: 1, density: 0.5 }, { value: 'y', count: 1, density: 0.5 }], uniq: ['x', 'y'],
    });
  });

  it('when a discrete path has more distinct numbers than the cap, then it is cut the same way and the summary stays exact', async () => {
    const b = await analytics([{ type: 'numeric/discrete', path: 'ag.metrics.tokens.cumulative.total' }], { maxDistinct: 3 });
    const m = metric(b, 0, 'attributes.ag.metrics.tokens.cumulative.total');
    expect(m).toMatchObject({ type: 'numeric/discrete', count: 5 + 3 + UNIQUE, min: 7, max: 2_000_000 + UNIQUE - 1 });
    expect((m.freq as Array<{ value: number; count: number }>).map((f) => [f.value, f.count])).toEqual([[7, 5], [1_000_000, 1], [1_000_001, 1]]);
    expect(m.uniq).toEqual([7, 1_000_000, 1_000_001]);
    expect(m.truncated).toBe(true);
    expect(m.other).toMatchObject({ values: 1 + UNIQUE, count: 1 + UNIQUE });
  });

  it('when array elements are counted, then the cap applies to elements, and a map within the cap carries no marker', async () => {
    const cut = metric(await analytics([{ type: 'categorical/multiple', path: 'tags.labels' }], { maxDistinct: 2 }), 0, 'attributes.tags.labels');
    expect(cut).toMatchObject({
      type: 'categorical/multiple', count: 15, truncated: true, uniq: ['a', 'b'],
      other: { values: 1, count: 5, density: 0.33333 },
    });
    const whole = metric(await analytics([{ type: 'categorical/multiple', path: 'tags.labels' }], { maxDistinct: 3 }), 0, 'attributes.tags.labels');
    expect(whole.uniq).toEqual(['a', 'b', 'c']);
    expect(whole).not.toHaveProperty('truncated');
    expect(whole).not.toHaveProperty('other');
  });

  it('when the cap is not a positive integer, then building refuses', () => {
    const parsed = parseSpecs([{ type: 'categorical/single', path: 'tags.id' }]);
    if (!parsed.ok) throw new Error('specs');
    const planned = planSpecs(parsed.specs);
    const r = compileScope({ filter: undefined, focus: 'trace', window: PLAN }, { projectParam: 'a_project' });
    if (!r.ok) throw new Error('scope');
    expect(() => buildAnalyticsQuery(TABLE, r.scope, PLAN, planned, { maxDistinct: 0 })).toThrow(/maxDistinct/);
  });
});
