import { describe, expect, it } from 'vitest';

import {
  applyCumulative,
  cumulativeEquals,
  readCumulative,
  recomputeCumulatives,
  rollupTrace,
  skeletonOf,
  type MetricSkeleton,
} from '../src/rollup.ts';
import type { JsonObject, Span } from '../src/span.ts';
import { sid, span } from './fixtures/builders.ts';

// root(1) ─┬─ agent(2) ─┬─ chat(3)  tokens 10/5/15, costs total 0.3
//          │            └─ chat(4)  tokens 20/10/30 + cache_read 4, one exception
//          └─ tool(5)   errors 1
function requestOne(): Span[] {
  return [
    span({ span_id: sid(1), span_name: 'root', start_time: 1_700_000_000 }),
    span({
      span_id: sid(3),
      parent_id: sid(2),
      span_name: 'chat',
      attributes: {
        'ag.metrics.tokens.incremental': { prompt: 10, completion: 5, total: 15 },
        'ag.metrics.costs.incremental.total': 0.3,
      },
    }),
  ];
}
function requestTwo(): Span[] {
  return [
    span({ span_id: sid(2), parent_id: sid(1), span_name: 'agent' }),
    span({
      span_id: sid(4),
      parent_id: sid(2),
      span_name: 'chat',
      attributes: { 'ag.metrics.tokens.incremental': { prompt: 20, completion: 10, total: 30, cache_read: 4 } },
      events: [{ name: 'exception', timestamp: 1_700_000_001 }],
    }),
    span({ span_id: sid(5), parent_id: sid(1), span_name: 'tool', attributes: { 'ag.metrics.errors.incremental': 1 } }),
  ];
}

function metricsOf(s: Span): JsonObject {
  return (s.attributes.ag as JsonObject).metrics as JsonObject;
}

describe('rollupTrace', () => {
  it('when a leaf has incremental metrics, then its cumulative equals them (missing base components as 0)', () => {
    const c = rollupTrace([{ span_id: 'a', tokens: { prompt: 3 } }]).get('a');
    expect(c).toEqual({ tokens: { prompt: 3, completion: 0, total: 0 }, costs: { prompt: 0, completion: 0, total: 0 }, errors: 0 });
  });

  it('when the trace arrived in two requests, then the roll-up over all known spans sums every level', () => {
    const all = [...requestOne(), ...requestTwo()];
    const c = rollupTrace(all.map(skeletonOf));
    expect(c.get(sid(2))).toEqual({
      tokens: { prompt: 30, completion: 15, total: 45, cache_read: 4 },
      costs: { prompt: 0, completion: 0, total: 0.3 },
      errors: 1,
    });
    expect(c.get(sid(1))).toEqual({
      tokens: { prompt: 30, completion: 15, total: 45, cache_read: 4 },
      costs: { prompt: 0, completion: 0, total: 0.3 },
      errors: 2,
    });
    expect(c.get(sid(5))?.errors).toBe(1);
  });

  it('when only the first request is known, then the span whose parent is missing is its own sub-root', () => {
    const c = rollupTrace(requestOne().map(skeletonOf));
    expect(c.get(sid(3))?.tokens).toEqual({ prompt: 10, completion: 5, total: 15 });
    expect(c.get(sid(1))?.tokens).toEqual({ prompt: 0, completion: 0, total: 0 });
  });

  it('when parents form a cycle, then it terminates, every span gets a value, and input order does not matter', () => {
    const spans: MetricSkeleton[] = [
      { span_id: 'c', parent_id: 'b', errors: 1 },
      { span_id: 'b', parent_id: 'a', errors: 10 },
      { span_id: 'a', parent_id: 'c', errors: 100 },
      { span_id: 'd', parent_id: 'b', errors: 1000 },
      { span_id: 'self', parent_id: 'self', errors: 5 },
    ];
    const forward = rollupTrace(spans);
    const backward = rollupTrace([...spans].reverse());
    expect(forward.size).toBe(5);
    // Cut at "a" (smallest id of the loop): a ← b ← {c, d}.
    expect(forward.get('a')?.errors).toBe(1111);
    expect(forward.get('b')?.errors).toBe(1011);
    expect(forward.get('self')?.errors).toBe(5);
    expect([...backward.entries()].sort()).toEqual([...forward.entries()].sort());
  });

  it('when a trace is very deep, then it does not overflow the stack', () => {
    const chain: MetricSkeleton[] = Array.from({ length: 50_000 }, (_, i) => ({
      span_id: String(i),
      ...(i > 0 ? { parent_id: String(i - 1) } : {}),
      errors: 1,
    }));
    expect(rollupTrace(chain).get('0')?.errors).toBe(50_000);
  });
});

describe('applyCumulative and recomputeCumulatives', () => {
  it('when cumulative values are non-zero, then they are written; zero ones leave the client value', () => {
    const s = span({ attributes: { 'ag.metrics.costs.cumulative.total': 9 } });
    const out = applyCumulative(s, { tokens: { prompt: 1, completion: 0, total: 1 }, costs: { prompt: 0, completion: 0, total: 0 }, errors: 0 });
    expect(metricsOf(out).tokens).toEqual({ cumulative: { prompt: 1, completion: 0, total: 1 } });
    expect(metricsOf(out).costs).toEqual({ cumulative: { total: 9 } });
    expect(metricsOf(out).errors).toEqual({});
    expect(metricsOf(s).tokens).toEqual({});
  });

  it('when everything is zero, then the same span object comes back', () => {
    const s = span();
    expect(applyCumulative(s, { tokens: { prompt: 0 }, costs: {}, errors: 0 })).toBe(s);
  });

  it('when a second request completes the tree, then only spans whose cumulative changed are returned', () => {
    const first = requestOne();
    const stored = new Map(first.map((s) => [s.span_id, s]));
    for (const s of recomputeCumulatives(first)) stored.set(s.span_id, s);
    expect(readCumulative(stored.get(sid(3)) as Span).tokens).toEqual({ prompt: 10, completion: 5, total: 15 });

    const second = requestTwo();
    const changed = recomputeCumulatives([...stored.values(), ...second]);
    // chat(3) is unchanged; root(1), agent(2), chat(4) and tool(5) get new cumulative values.
    expect(changed.map((s) => s.span_id).sort()).toEqual([sid(1), sid(2), sid(4), sid(5)]);
    const root = changed.find((s) => s.span_id === sid(1)) as Span;
    expect(metricsOf(root).tokens).toEqual({ cumulative: { prompt: 30, completion: 15, total: 45, cache_read: 4 } });
    expect(metricsOf(root).errors).toEqual({ cumulative: 2 });

    for (const s of [...second, ...changed]) stored.set(s.span_id, s);
    expect(recomputeCumulatives([...stored.values()])).toEqual([]);
  });

  it('when comparing cumulative values, then missing components equal 0 and float noise is tolerated', () => {
    expect(
      cumulativeEquals(
        { tokens: { prompt: 1 }, costs: { total: 0.1 + 0.2 }, errors: 0 },
        { tokens: { prompt: 1, completion: 0 }, costs: { total: 0.3 }, errors: 0 },
      ),
    ).toBe(true);
    expect(cumulativeEquals({ tokens: { prompt: 1 }, costs: {}, errors: 0 }, { tokens: { prompt: 2 }, costs: {}, errors: 0 })).toBe(false);
  });
});
