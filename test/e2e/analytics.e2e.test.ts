// Analytics over the real read model: spans ingested through the command side, projected into
// ClickHouse (roll-ups included), then summarised by POST /spans/analytics/query, its deprecated twin
// and the legacy POST /tracing/spans/analytics. Expectations are computed by hand from the spans below.
//
// Window 2025-06-01 00:00–00:03 UTC at 60 s buckets:
//   bucket 0: T1 root 100 ms (child C1: 40 ms, tokens 60+40=100, cost 0.5, exception event)
//             T2 root 200 ms (exception event on the root)
//             T3 root 300 ms (child C3: 20 ms, tokens 50)
//   bucket 1: T4 root 400 ms
//   bucket 2: nothing
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let acc: TestAccount;

const OLDEST = '2025-06-01T00:00:00Z';
const NEWEST = '2025-06-01T00:03:00Z';
const WINDOW = { oldest: OLDEST, newest: NEWEST, interval: 60 };
const at = (s: string): string => `2025-06-01T${s}Z`;
const EXCEPTION = { name: 'exception', timestamp: at('00:00:10.020'), attributes: { 'exception.type': 'ToolError' } };

async function post(path: string, body: unknown, a: TestAccount = acc): Promise<{ status: number; body: any; headers: Headers }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method: 'POST', headers: { ...a.auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json(), headers: r.headers };
}

const T = Array.from({ length: 4 }, () => hex(16));
const R = Array.from({ length: 4 }, () => hex(8));

function spans() {
  return [
    {
      trace_id: T[0], span_id: R[0], span_name: 'agent', start_time: at('00:00:10'), end_time: at('00:00:10.100'),
      attributes: { ag: { meta: { app: 'a' } }, tags: { escalated: true, labels: ['x', 'y'], note: 'hi', obj: { k: 1 }, score: 1 } },
    },
    {
      trace_id: T[0], span_id: hex(8), parent_id: R[0], span_name: 'chat', start_time: at('00:00:10.010'), end_time: at('00:00:10.050'),
      attributes: { ag: { metrics: { tokens: { incremental: { prompt: 60, completion: 40, total: 100 } }, costs: { incremental: { total: 0.5 } } } } },
      events: [EXCEPTION],
    },
    {
      trace_id: T[1], span_id: R[1], span_name: 'agent', start_time: at('00:00:20'), end_time: at('00:00:20.200'),
      attributes: { ag: { meta: { app: 'b' } }, tags: { escalated: false, labels: ['x'], note: 5, obj: 'str', score: 2 } },
      events: [{ ...EXCEPTION, timestamp: at('00:00:20.100') }],
    },
    {
      trace_id: T[2], span_id: R[2], span_name: 'agent', start_time: at('00:00:30'), end_time: at('00:00:30.300'),
      attributes: { ag: { meta: { app: 'a' } }, tags: { escalated: 'yes', labels: 'x', score: 2 } },
    },
    {
      trace_id: T[2], span_id: hex(8), parent_id: R[2], span_name: 'embed', start_time: at('00:00:30.010'), end_time: at('00:00:30.030'),
      attributes: { ag: { metrics: { tokens: { incremental: { total: 50 } } } } },
    },
    {
      trace_id: T[3], span_id: R[3], span_name: 'agent', start_time: at('00:01:05'), end_time: at('00:01:05.400'),
      attributes: { ag: { meta: { app: 'c' } }, tags: { escalated: true, score: 7 } },
    },
  ];
}

const SPECS = [
  { type: 'numeric/continuous', path: 'attributes.ag.metrics.duration.cumulative' },
  { type: 'numeric/discrete', path: 'attributes.ag.metrics.tokens.cumulative.total' },
  { type: 'categorical/single', path: 'attributes.ag.meta.app' },
  { type: 'binary', path: 'attributes.tags.escalated' },
  { type: 'categorical/multiple', path: 'attributes.tags.labels' },
  { type: 'string', path: 'attributes.tags.note' },
  { type: 'json', path: 'attributes.tags.obj' },
  { type: '*', path: 'attributes.tags.score' },
  { type: 'numeric/continuous', path: 'attributes.ag.metrics.errors.cumulative' },
  { type: 'numeric/continuous', path: 'attributes.ag.metrics.costs.cumulative.total' },
];

const ZERO = { count: 0, duration: 0, costs: 0, tokens: 0 };

beforeAll(async () => {
  t = await startTestApp();
  acc = await createAccount(t.baseUrl, t.adminToken);
  expect((await post('/tracing/spans/ingest', { spans: spans() })).status).toBe(202);
  // Visible once every span is projected (the legacy span focus counts them all).
  const ready = await eventually(
    () => post('/tracing/spans/analytics', { ...WINDOW, focus: 'span' }),
    (x) => x.status === 200 && x.body.buckets?.[0]?.total.count === 5 && x.body.buckets?.[1]?.total.count === 1 && x.body.buckets?.[0]?.total.tokens === 150,
    30_000,
  );
  expect(ready.body.buckets[0].total.count).toBe(5);
});
afterAll(async () => { await t?.stop(); });

describe('spec-driven analytics', () => {
  let r: { status: number; body: any };
  beforeAll(async () => {
    r = await post('/spans/analytics/query', { ...WINDOW, specs: SPECS });
  });

  it('when root spans fill two of three buckets, then two buckets come back in order with the bucket width in seconds', () => {
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(2);
    expect(r.body.buckets.map((b: any) => [b.timestamp, b.interval])).toEqual([[OLDEST, 60], ['2025-06-01T00:01:00Z', 60]]);
    expect(r.body.query).toEqual({
      formatting: { focus: 'trace', format: 'agenta' },
      windowing: { oldest: OLDEST, newest: NEWEST, interval: 60 },
      filtering: { operator: 'and', conditions: [] },
    });
    expect(r.body.specs[7]).toEqual({ type: 'numeric/continuous', path: 'attributes.tags.score', edge: true });
  });

  it('when a continuous spec reads durations 100, 200, 300 ms, then stats, linear percentiles and a 2-bin histogram match', () => {
    const d = r.body.buckets[0].metrics['attributes.ag.metrics.duration.cumulative'];
    expect(d).toMatchObject({ type: 'numeric/continuous', count: 3, sum: 600, mean: 200, min: 100, max: 300, range: 200 });
    expect(d.pcts.p50).toBeCloseTo(200, 9);
    expect(d.pcts.p25).toBeCloseTo(150, 9); // h = 2 × 0.25 = 0.5 → 100 + 0.5 × 100
    expect(d.pcts.p90).toBeCloseTo(280, 9);
    expect(d.iqrs.iqr50).toBeCloseTo(100, 9);
    expect(d.pscs.psc50).toBeCloseTo(0.5, 9);
    expect(d.hist).toEqual([
      { bin: 1, count: 1, interval: [100, 200], density: 0.33333 },
      { bin: 2, count: 2, interval: [200, 300], density: 0.66667 },
    ]);
    expect(r.body.buckets[1].metrics['attributes.ag.metrics.duration.cumulative']).toMatchObject({ count: 1, sum: 400, hist: [{ bin: 1, count: 1, interval: [400, 400], density: 1 }] });
  });

  it('when roll-ups are read, then cumulative tokens, costs and errors come from the whole trace', () => {
    const m = r.body.buckets[0].metrics;
    expect(m['attributes.ag.metrics.tokens.cumulative.total']).toMatchObject({
      type: 'numeric/discrete', count: 2, sum: 150, min: 50, max: 100,
      freq: [{ value: 50, count: 1, density: 0.5 }, { value: 100, count: 1, density: 0.5 }], uniq: [50, 100],
    });
    expect(m['attributes.ag.metrics.errors.cumulative']).toMatchObject({ count: 3, sum: 2, min: 0, max: 1 });
    expect(m['attributes.ag.metrics.costs.cumulative.total']).toMatchObject({ count: 1, sum: 0.5 });
  });

  it('when JSON values are summarised by type, then values of other JSON types are ignored', () => {
    const m = r.body.buckets[0].metrics;
    expect(m['attributes.ag.meta.app']).toEqual({
      type: 'categorical/single', count: 3,
      freq: [{ value: 'a', count: 2, density: 0.66667 }, { value: 'b', count: 1, density: 0.33333 }], uniq: ['a', 'b'],
    });
    expect(m['attributes.tags.escalated']).toEqual({
      type: 'binary', count: 2, freq: [{ value: true, count: 1, density: 0.5 }, { value: false, count: 1, density: 0.5 }], uniq: [true, false],
    });
    expect(m['attributes.tags.labels']).toEqual({
      type: 'categorical/multiple', count: 3,
      freq: [{ value: 'x', count: 2, density: 0.66667 }, { value: 'y', count: 1, density: 0.33333 }], uniq: ['x', 'y'],
    });
    expect(m['attributes.tags.note']).toEqual({ type: 'string', count: 1 });
    expect(m['attributes.tags.obj']).toEqual({ type: 'json', count: 1 });
    expect(m['attributes.tags.score']).toMatchObject({ type: 'numeric/continuous', count: 3, sum: 5, min: 1, max: 2 });
  });

  it('when a bucket has no value for a spec, then that spec is left out of the bucket', () => {
    expect(Object.keys(r.body.buckets[1].metrics).sort()).toEqual([
      'attributes.ag.meta.app',
      'attributes.ag.metrics.duration.cumulative',
      'attributes.ag.metrics.errors.cumulative',
      'attributes.tags.escalated',
      'attributes.tags.score',
    ]);
  });

  it('when specs are omitted, then the six reference defaults are computed', async () => {
    const d = await post('/spans/analytics/query', WINDOW);
    expect(d.status).toBe(200);
    expect(d.body.specs.map((s: any) => s.path)).toEqual([
      'attributes.ag.metrics.duration.cumulative', 'attributes.ag.metrics.errors.cumulative', 'attributes.ag.metrics.costs.cumulative.total',
      'attributes.ag.metrics.tokens.cumulative.total', 'attributes.ag.type.trace', 'attributes.ag.type.span',
    ]);
    expect(d.body.buckets[0].metrics['attributes.ag.type.trace']).toMatchObject({ type: 'categorical/single', count: 3, uniq: ['invocation'] });
  });

  it('when the inputs come as query parameters (specs as JSON text), then the deprecated route answers the same', async () => {
    const qs = new URLSearchParams({ oldest: OLDEST, newest: NEWEST, interval: '60', specs: JSON.stringify(SPECS) });
    const d = await post(`/tracing/analytics/query?${qs}`, {});
    expect(d.status).toBe(200);
    expect(d.body.buckets).toEqual(r.body.buckets);
  });

  it('when focus is span, then child spans count too', async () => {
    const d = await post('/spans/analytics/query', { ...WINDOW, focus: 'span', specs: [SPECS[0]] });
    expect(d.body.buckets[0].metrics['attributes.ag.metrics.duration.cumulative']).toMatchObject({ count: 5, sum: 660 });
  });

  it('when 24 h are asked at 60 s, then the buckets widen to 5 minutes and say so', async () => {
    const d = await post('/spans/analytics/query', { oldest: OLDEST, newest: '2025-06-02T00:00:00Z', interval: 60, specs: [SPECS[0]] });
    expect(d.body.query.windowing.interval).toBe(300);
    expect(d.body.buckets).toHaveLength(1);
    expect(d.body.buckets[0]).toMatchObject({ timestamp: OLDEST, interval: 300, metrics: { 'attributes.ag.metrics.duration.cumulative': { count: 4, sum: 1000 } } });
  });

  it('when a filter and a rate are given, then the filtered roots are sampled by trace like span queries sample them', async () => {
    const filter = { conditions: [{ field: 'attributes', key: 'ag.meta.app', value: 'a' }] };
    const all = await post('/spans/analytics/query', { ...WINDOW, filter, specs: [SPECS[0]] });
    expect(all.body.buckets).toHaveLength(1);
    expect(all.body.buckets[0].metrics['attributes.ag.metrics.duration.cumulative']).toMatchObject({ count: 2, sum: 400 });
    expect(all.body.query.filtering).toEqual({ operator: 'and', conditions: [{ field: 'attributes', key: 'ag.meta.app', value: 'a', operator: 'is' }] });
    for (const rate of [0.3, 0.5, 0.7]) {
      const sampled = await post('/spans/analytics/query', { ...WINDOW, filter: JSON.stringify(filter), rate, specs: [SPECS[0]] });
      const roots = await post('/spans/query', {
        filtering: { conditions: [...filter.conditions, { field: 'parent_id', operator: 'is', value: null }] },
        windowing: { oldest: OLDEST, newest: NEWEST, rate, limit: 100 },
      });
      const counted = sampled.body.buckets.reduce((n: number, b: any) => n + b.metrics['attributes.ag.metrics.duration.cumulative'].count, 0);
      expect(counted).toBe(roots.body.count);
      expect(sampled.body.query.windowing.rate).toBe(rate);
    }
  });
});

describe('legacy analytics', () => {
  it('when focus is trace, then every bucket is there, roots summed with cumulative metrics, errors = spans with exception events', async () => {
    const r = await post('/tracing/spans/analytics', WINDOW);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      count: 3,
      buckets: [
        // T1's exception is on its child: the root itself has no exception event.
        { timestamp: OLDEST, interval: 60, total: { count: 3, duration: 600, costs: 0.5, tokens: 150 }, errors: { count: 1, duration: 200, costs: 0, tokens: 0 } },
        { timestamp: '2025-06-01T00:01:00Z', interval: 60, total: { count: 1, duration: 400, costs: 0, tokens: 0 }, errors: ZERO },
        { timestamp: '2025-06-01T00:02:00Z', interval: 60, total: ZERO, errors: ZERO },
      ],
    });
  });

  it('when focus is span, then every span counts with incremental costs and tokens', async () => {
    const r = await post('/tracing/spans/analytics?focus=span', { oldest: OLDEST, newest: NEWEST, interval: 60, limit: 10 });
    expect(r.body.buckets[0]).toEqual({
      timestamp: OLDEST, interval: 60,
      total: { count: 5, duration: 660, costs: 0.5, tokens: 150 },
      errors: { count: 2, duration: 240, costs: 0.5, tokens: 100 },
    });
  });
});

describe('bad input and isolation', () => {
  it('when the filter is invalid, then 400 names the condition', async () => {
    const r = await post('/spans/analytics/query', { ...WINDOW, filter: { conditions: [{ field: 'span_name', operator: 'invalid_operator', value: 'x' }] } });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/filter\.conditions\[0\]\.operator: unknown operator 'invalid_operator'/);
    const legacy = await post('/tracing/spans/analytics', { ...WINDOW, filter: { conditions: [{ field: 'trace_id', operator: 'gt', value: 'x' }] } });
    expect(legacy.status).toBe(400);
    expect(legacy.body.detail).toMatch(/trace_id/);
  });

  it('when specs, keys, types, windows or timestamps are wrong, then 422 in the validation shape', async () => {
    const cases: Array<[unknown, unknown[]]> = [
      [{ ...WINDOW, specs: [{ type: 'numeric', path: 'a' }] }, ['body', 'specs', 0, 'type']],
      [{ ...WINDOW, specs: [{ type: 'binary', path: 'a', bins: 3 }] }, ['body', 'specs', 0, 'bins']],
      [{ ...WINDOW, specs: 'not json' }, ['body', 'specs']],
      [{ ...WINDOW, limit: 10 }, ['body']],
      [{ ...WINDOW, filtering: {} }, ['body']],
      [{ ...WINDOW, interval: 1.5 }, ['body', 'interval']],
      [{ ...WINDOW, rate: 0 }, ['body', 'rate']],
      [{ ...WINDOW, focus: 'everything' }, ['body', 'focus']],
      [{ ...WINDOW, oldest: NEWEST, newest: OLDEST }, ['body', 'newest']],
      [{ ...WINDOW, oldest: 12345 }, ['body', 'oldest']],
    ];
    for (const [body, loc] of cases) {
      const r = await post('/spans/analytics/query', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail[0].loc, JSON.stringify(body)).toEqual(loc);
      expect(typeof r.body.detail[0].msg).toBe('string');
    }
    const ambiguous = await post('/tracing/spans/analytics?oldest=12345', {});
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.detail[0]).toMatchObject({ loc: ['query', 'oldest'], msg: 'Timestamp 12345 is ambiguous.' });
    const legacySpecs = await post('/tracing/spans/analytics', { ...WINDOW, specs: SPECS });
    expect(legacySpecs.status).toBe(422);
  });

  it("when another project asks, then it sees none of this project's spans", async () => {
    const other = await createAccount(t.baseUrl, t.adminToken);
    const r = await post('/spans/analytics/query', { ...WINDOW, specs: SPECS }, other);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ count: 0, buckets: [] });
    const legacy = await post('/tracing/spans/analytics', { ...WINDOW, focus: 'span' }, other);
    expect(legacy.body.buckets.map((b: any) => [b.total.count, b.errors.count])).toEqual([[0, 0], [0, 0], [0, 0]]);
  });
});
