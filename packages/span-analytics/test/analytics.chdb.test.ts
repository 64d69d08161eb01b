// The generated statements run on the embedded ClickHouse engine (chDB) against the migrated span
// table, and their rows are shaped into responses: every metric type, the legacy schema, filters,
// focus, sampling and project isolation, with hand-computed expectations.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickhouse, openClickhouse, type Clickhouse } from '@llm/clickhouse';

import {
  buildAnalyticsQuery,
  buildAutoTypeProbe,
  buildLegacyQuery,
  compileScope,
  paramValues,
  parseSpecs,
  planBuckets,
  planSpecs,
  resolveAutoTypes,
  shapeAnalytics,
  shapeLegacy,
  type AnalyticsBucket,
  type BucketPlan,
  type Focus,
  type Scope,
  type Statement,
} from '../src/index.ts';
import { NEWEST, OLDEST, OTHER_PROJECT, PROJECT, SPANS, toRow } from './fixtures/analytics-rows.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../services/projector-spans/migrations/');
const TABLE = 'llm.spans';
const us = (iso: string): number => Date.parse(iso) * 1000;
const PLAN: BucketPlan = planBuckets({ oldestUs: us(OLDEST), newestUs: us(NEWEST) }, 60);

let dir: string;
let ch: Clickhouse;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'span-analytics-chdb-'));
  ch = await openClickhouse({ dataDir: dir, database: 'llm' });
  await migrateClickhouse(ch, MIGRATIONS);
  await ch.client.insert({ table: TABLE, values: SPANS.map(toRow), format: 'JSONEachRow' });
}, 60_000);

afterAll(async () => {
  await ch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function rows(st: Statement): Promise<Array<Record<string, unknown>>> {
  const r = await ch.client.query({ query: st.sql, query_params: paramValues(st.params), format: 'JSONEachRow' });
  return r.json<Record<string, unknown>>();
}

function scope(opts: { filter?: unknown; focus?: Focus; rate?: number; project?: string } = {}): Scope & { project: string } {
  const r = compileScope(
    { filter: opts.filter, focus: opts.focus ?? 'trace', window: PLAN, ...(opts.rate !== undefined ? { rate: opts.rate } : {}) },
    { projectParam: 'a_project' },
  );
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  const project = opts.project ?? PROJECT;
  return { where: r.scope.where, params: { ...r.scope.params, a_project: { type: 'String', value: project } }, project };
}

async function analytics(specs: unknown, opts: Parameters<typeof scope>[0] = {}): Promise<AnalyticsBucket[]> {
  const parsed = parseSpecs(specs);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const sc = scope(opts);
  let planned = planSpecs(parsed.specs);
  const probe = buildAutoTypeProbe(TABLE, sc, planned);
  if (probe) planned = resolveAutoTypes(planned, (await rows(probe))[0]);
  const st = buildAnalyticsQuery(TABLE, sc, PLAN, planned);
  return st ? shapeAnalytics(await rows(st), PLAN, planned) : [];
}

const metric = (buckets: AnalyticsBucket[], i: number, key: string): Record<string, unknown> | undefined =>
  buckets[i]?.metrics[key] as Record<string, unknown> | undefined;

describe('spec-driven analytics on chDB', () => {
  let b: AnalyticsBucket[];
  beforeAll(async () => {
    b = await analytics([
      { type: 'numeric/continuous', path: 'attributes.ag.metrics.duration.cumulative' },
      { type: 'numeric/discrete', path: 'ag.metrics.tokens.cumulative.total' },
      { type: 'categorical/single', path: 'attributes.ag.meta.app' },
      { type: 'binary', path: 'attributes.tags.escalated' },
      { type: 'categorical/multiple', path: 'attributes.tags.labels' },
      { type: 'string', path: 'attributes.tags.note' },
      { type: 'json', path: 'attributes.tags.obj' },
      { type: '*', path: 'attributes.tags.score' },
      { type: '*', path: 'attributes.ag.type.span' },
      { type: 'none', path: 'attributes.tags.nothing' },
      { type: 'numeric/continuous', path: 'attributes.ag.metrics.errors.cumulative' },
      { type: 'numeric/continuous', path: 'attributes.ag.metrics.costs.cumulative.total', bins: 3, vmin: 0, vmax: 0.6, edge: false },
      { type: 'json', path: 'attributes.ag.metrics.tokens.cumulative' },
    ]);
  });

  it('when two of three buckets hold root spans, then exactly those two come back, in order, with the width used', () => {
    expect(b.map((x) => [x.timestamp, x.interval])).toEqual([['2024-01-01T00:00:00Z', 60], ['2024-01-01T00:01:00Z', 60]]);
  });

  it('when a continuous spec reads duration, then count/sum/mean/min/max/range, linear percentiles, iqrs, pscs and hist match', () => {
    const d = metric(b, 0, 'attributes.ag.metrics.duration.cumulative')!;
    expect(d).toMatchObject({ type: 'numeric/continuous', count: 4, sum: 100, mean: 25, min: 10, max: 40, range: 30 });
    const pcts = d.pcts as Record<string, number>;
    // values 10, 20, 30, 40: h = 3p, linear between neighbours
    expect(pcts.p50).toBeCloseTo(25, 9);
    expect(pcts.p25).toBeCloseTo(17.5, 9);
    expect(pcts.p75).toBeCloseTo(32.5, 9);
    expect(pcts['p00.05']).toBeCloseTo(10.015, 9);
    expect(pcts['p99.95']).toBeCloseTo(39.985, 9);
    expect(Object.keys(pcts)).toHaveLength(27);
    expect((d.iqrs as Record<string, number>).iqr50).toBeCloseTo(15, 9);
    expect((d.iqrs as Record<string, number>)['iqr99.9']).toBeCloseTo(29.97, 9);
    expect((d.pscs as Record<string, number>).psc50).toBeCloseTo(0.6, 9);
    // n = 4 → 2 bins of width 15 over [10, 40]
    expect(d.hist).toEqual([
      { bin: 1, count: 2, interval: [10, 25], density: 0.5 },
      { bin: 2, count: 2, interval: [25, 40], density: 0.5 },
    ]);
    const d1 = metric(b, 1, 'attributes.ag.metrics.duration.cumulative')!;
    expect(d1).toMatchObject({ count: 2, sum: 160, mean: 80, min: 60, max: 100, range: 40 });
    expect(d1.hist).toEqual([
      { bin: 1, count: 1, interval: [60, 80], density: 0.5 },
      { bin: 2, count: 1, interval: [80, 100], density: 0.5 },
    ]);
  });

  it('when a roll-up map is all zeros, then the span has no cumulative (as the API shows it), so it is not counted', () => {
    expect(metric(b, 0, 'attributes.ag.metrics.tokens.cumulative')).toEqual({ type: 'json', count: 3 });
    expect(metric(b, 0, 'attributes.ag.metrics.costs.cumulative.total')).toMatchObject({ count: 2 });
  });

  it('when a discrete spec reads a cumulative token map entry, then spans without the key are skipped and freq is by count then value', () => {
    const t = metric(b, 0, 'attributes.ag.metrics.tokens.cumulative.total')!;
    expect(t).toMatchObject({ type: 'numeric/discrete', count: 3, sum: 300, mean: 100, min: 50, max: 150, range: 100 });
    expect((t.pcts as Record<string, number>).p50).toBe(100);
    expect(t.freq).toEqual([
      { value: 50, count: 1, density: 0.33333 },
      { value: 100, count: 1, density: 0.33333 },
      { value: 150, count: 1, density: 0.33333 },
    ]);
    expect(t.uniq).toEqual([50, 100, 150]);
    expect(t).not.toHaveProperty('hist');
    const t1 = metric(b, 1, 'attributes.ag.metrics.tokens.cumulative.total')!;
    expect(t1).toMatchObject({ count: 1, sum: 10, min: 10, max: 10, freq: [{ value: 10, count: 1, density: 1 }], uniq: [10] });
    expect(t1.pscs).toEqual({ psc25: 0, psc50: 0, psc75: 0, psc80: 0, psc90: 0, psc95: 0, psc99: 0, 'psc99.9': 0 });
  });

  it('when categorical, binary, multiple, string and json specs read JSON, then values of other JSON types are ignored', () => {
    expect(metric(b, 0, 'attributes.ag.meta.app')).toEqual({
      type: 'categorical/single', count: 3,
      freq: [{ value: 'a', count: 2, density: 0.66667 }, { value: 'b', count: 1, density: 0.33333 }], uniq: ['a', 'b'],
    });
    expect(metric(b, 0, 'attributes.tags.escalated')).toEqual({
      type: 'binary', count: 2, freq: [{ value: true, count: 1, density: 0.5 }, { value: false, count: 1, density: 0.5 }], uniq: [true, false],
    });
    expect(metric(b, 1, 'attributes.tags.escalated')).toEqual({
      type: 'binary', count: 2, freq: [{ value: true, count: 2, density: 1 }, { value: false, count: 0, density: 0 }], uniq: [true, false],
    });
    expect(metric(b, 0, 'attributes.tags.labels')).toEqual({
      type: 'categorical/multiple', count: 3,
      freq: [{ value: 'x', count: 2, density: 0.66667 }, { value: 'y', count: 1, density: 0.33333 }], uniq: ['x', 'y'],
    });
    expect(metric(b, 0, 'attributes.tags.note')).toEqual({ type: 'string', count: 1 });
    expect(metric(b, 0, 'attributes.tags.obj')).toEqual({ type: 'json', count: 1 });
  });

  it('when a bucket has no value for a spec, then its metrics leave that spec out', () => {
    expect(Object.keys(b[1]!.metrics).sort()).toEqual([
      'attributes.ag.meta.app',
      'attributes.ag.metrics.duration.cumulative',
      'attributes.ag.metrics.errors.cumulative',
      'attributes.ag.metrics.tokens.cumulative',
      'attributes.ag.metrics.tokens.cumulative.total',
      'attributes.ag.type.span',
      'attributes.tags.escalated',
      'attributes.tags.score',
    ]);
    expect(b[0]!.metrics).not.toHaveProperty('attributes.tags.nothing');
  });

  it("when the type is '*', then the window's most frequent JSON type (or the column's type) decides", () => {
    const score = metric(b, 0, 'attributes.tags.score')!;
    expect(score).toMatchObject({ type: 'numeric/continuous', count: 3, sum: 5, min: 1, max: 2 });
    expect(score.hist).toEqual([
      { bin: 1, count: 1, interval: [1, 1.5], density: 0.33333 },
      { bin: 2, count: 2, interval: [1.5, 2], density: 0.66667 },
    ]);
    expect(metric(b, 1, 'attributes.tags.score')!.hist).toEqual([{ bin: 1, count: 1, interval: [7, 7], density: 1 }]);
    expect(metric(b, 0, 'attributes.ag.type.span')).toEqual({
      type: 'categorical/single', count: 4,
      freq: [{ value: 'workflow', count: 3, density: 0.75 }, { value: 'chat', count: 1, density: 0.25 }], uniq: ['workflow', 'chat'],
    });
  });

  it('when errors.cumulative is mostly 0, then error-free spans count and pscs are left out (median negligible)', () => {
    const e = metric(b, 0, 'attributes.ag.metrics.errors.cumulative')!;
    expect(e).toMatchObject({ count: 4, sum: 1, mean: 0.25, min: 0, max: 1 });
    expect(e).not.toHaveProperty('pscs');
    expect((e.hist as Array<{ count: number }>).map((h) => h.count)).toEqual([3, 1]);
  });

  it('when bins, vmin, vmax and edge=false are given, then bin centres span [vmin, vmax] and the end bins are half-width', () => {
    const c = metric(b, 0, 'attributes.ag.metrics.costs.cumulative.total')!;
    const hist = c.hist as Array<{ bin: number; count: number; interval: [number, number] }>;
    expect(hist.map((h) => h.count)).toEqual([0, 1, 1]);
    expect(hist[0]!.interval[0]).toBe(0);
    expect(hist[0]!.interval[1]).toBeCloseTo(0.15, 12);
    expect(hist[1]!.interval[0]).toBeCloseTo(0.15, 12);
    expect(hist[1]!.interval[1]).toBeCloseTo(0.45, 12);
    expect(hist[2]!.interval).toEqual([expect.closeTo(0.45, 12), 0.6]);
  });
});

describe('population, filter, sampling and isolation on chDB', () => {
  const duration = [{ type: 'numeric/continuous', path: 'attributes.ag.metrics.duration.cumulative' }];

  it('when focus is span, then child spans count too', async () => {
    const b = await analytics(duration, { focus: 'span' });
    expect(metric(b, 0, 'attributes.ag.metrics.duration.cumulative')).toMatchObject({ count: 6, sum: 106 });
  });

  it('when a filter is given, then only matching roots count', async () => {
    const b = await analytics(duration, { filter: { conditions: [{ field: 'attributes', key: 'ag.meta.app', value: 'a' }] } });
    expect(b).toHaveLength(1);
    expect(metric(b, 0, 'attributes.ag.metrics.duration.cumulative')).toMatchObject({ count: 2, sum: 40 });
  });

  it('when rate is given, then whole traces are sampled by the same rule as span queries', async () => {
    const sampled = await ch.client.query({
      query: `SELECT count() AS n FROM ${TABLE} FINAL WHERE project_id = 'p1' AND parent_id = '' AND is_deleted = 0
              AND start_time >= '2024-01-01 00:00:00' AND start_time < '2024-01-01 00:03:00' AND cityHash64(trace_id) % 10000 < 5000`,
      format: 'JSONEachRow',
    });
    const expected = Number((await sampled.json<{ n: number | string }>())[0]!.n);
    const b = await analytics(duration, { rate: 0.5 });
    const counted = b.reduce((n, x) => n + ((x.metrics['attributes.ag.metrics.duration.cumulative'] as { count: number } | undefined)?.count ?? 0), 0);
    expect(counted).toBe(expected);
  });

  it('when another project asks, then it sees nothing of p1 (and p1 never saw its span)', async () => {
    const other = await analytics(duration, { project: OTHER_PROJECT });
    expect(metric(other, 0, 'attributes.ag.metrics.duration.cumulative')).toMatchObject({ count: 1, sum: 1000 });
    const none = await analytics(duration, { project: 'p3' });
    expect(none).toEqual([]);
  });

  it('when the filter is invalid, then compileScope names the condition instead of matching nothing', () => {
    const r = compileScope({ filter: { conditions: [{ field: 'span_name', operator: 'nope', value: 'x' }] }, focus: 'trace', window: PLAN }, { projectParam: 'a_project' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.kind).toBe('filter');
      expect(r.errors[0]!.message).toMatch(/^filter\.conditions\[0\]\.operator: unknown operator 'nope'/);
    }
  });

  it('when a JSON path segment is hostile, then it travels as a parameter and simply finds nothing', async () => {
    const b = await analytics([{ type: 'numeric/continuous', path: "attributes.x') OR 1=1 --" }, { type: 'numeric/discrete', path: "ag.metrics.tokens.cumulative.a'b" }]);
    expect(b).toEqual([]);
  });
});

describe('legacy analytics on chDB', () => {
  async function legacy(focus: Focus) {
    const sc = scope({ focus });
    return shapeLegacy(await rows(buildLegacyQuery(TABLE, sc, PLAN, focus)), PLAN);
  }

  it('when focus is trace, then roots are summed with cumulative costs/tokens, errors are spans with exception events, every bucket is there', async () => {
    expect(await legacy('trace')).toEqual([
      { timestamp: '2024-01-01T00:00:00Z', interval: 60, total: { count: 4, duration: 100, costs: 0.75, tokens: 300 }, errors: { count: 1, duration: 20, costs: 0, tokens: 50 } },
      { timestamp: '2024-01-01T00:01:00Z', interval: 60, total: { count: 2, duration: 160, costs: 0, tokens: 10 }, errors: { count: 0, duration: 0, costs: 0, tokens: 0 } },
      { timestamp: '2024-01-01T00:02:00Z', interval: 60, total: { count: 0, duration: 0, costs: 0, tokens: 0 }, errors: { count: 0, duration: 0, costs: 0, tokens: 0 } },
    ]);
  });

  it('when focus is span, then every span counts with incremental costs/tokens', async () => {
    const b = await legacy('span');
    expect(b[0]).toEqual({
      timestamp: '2024-01-01T00:00:00Z', interval: 60,
      total: { count: 6, duration: 106, costs: 0.75, tokens: 250 },
      errors: { count: 2, duration: 25, costs: 0.5, tokens: 100 },
    });
    expect(b[1]!.total).toEqual({ count: 2, duration: 160, costs: 0, tokens: 0 });
  });
});
