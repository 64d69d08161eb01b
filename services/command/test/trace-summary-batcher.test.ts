// The batching of metrics refreshes' span-store statements (trace-summary-batcher.ts), against a
// span store held in memory that records each statement: refreshes arriving while a batch is on
// the store share the next batch; each gets its own groups' summaries; refreshes sharing a trace
// never share a batch; one whose traces are not stored yet waits (bounded) without holding others.
// The statements themselves run against the real engine in the metrics e2e tests.
import { describe, expect, it } from 'vitest';
import type { LocatedTraces, TraceMetrics } from '@llm/span-read';
import { TraceSummaryBatcher } from '../src/evaluations/adapters/trace-summary-batcher.ts';

/** A span store whose roots are `stored`; each summary is `{traces: [...]}` of its group's stored traces. */
function store(stored: Set<string>) {
  const calls: string[][] = [];
  let gate: Promise<void> = Promise.resolve();
  let open = (): void => undefined;
  const unused = (): never => { throw new Error('the batcher reads with summariseStored only'); };
  const source: TraceMetrics = {
    locate: unused, outputs: unused,
    async summariseStored(_projectId, groups) {
      calls.push(groups.flat());
      await gate;
      if (groups.flat().includes('broken')) throw new Error('engine down');
      const seen = new Set<string>();
      const mine = groups.map((g) => g.filter((t) => stored.has(t) && !seen.has(t) && seen.add(t)));
      return { summaries: mine.map((traces) => ({ traces })), stored: mine.map((t) => t.length), computed: true };
    },
  };
  return {
    source, calls,
    hold: () => { gate = new Promise((r) => { open = r; }); },
    release: () => open(),
  };
}
const spec = [{ type: 'numeric/continuous', path: 'score' }];

describe('the trace summary batcher', () => {
  it('given a batch on the store, when refreshes arrive, then they share the next batch and each gets its own groups', async () => {
    const s = store(new Set(['a', 'b', 'c', 'd', 'e', 'f']));
    const batcher = new TraceSummaryBatcher(s.source);
    s.hold();
    const first = batcher.summarise('p', [['a']], [spec], 1000);
    const later = [batcher.summarise('p', [['b'], ['c']], [spec, spec], 1000), batcher.summarise('p', [['d', 'e']], [spec], 1000), batcher.summarise('p', [['f']], [spec], 1000)];
    s.release();
    expect(await first).toEqual([{ traces: ['a'] }]);
    expect(await Promise.all(later)).toEqual([[{ traces: ['b'] }, { traces: ['c'] }], [{ traces: ['d', 'e'] }], [{ traces: ['f'] }]]);
    // Two statements: the first refresh alone, then the three that waited.
    expect(s.calls).toEqual([['a'], ['b', 'c', 'd', 'e', 'f']]);
  });

  it('given two refreshes sharing a trace, when they wait together, then they go in different batches and both count it', async () => {
    const s = store(new Set(['a', 'b', 'x']));
    const batcher = new TraceSummaryBatcher(s.source);
    s.hold();
    const first = batcher.summarise('p', [['x']], [spec], 1000);
    const both = [batcher.summarise('p', [['a', 'x']], [spec], 1000), batcher.summarise('p', [['b', 'x']], [spec], 1000)];
    s.release();
    await first;
    expect(await Promise.all(both)).toEqual([[{ traces: ['a', 'x'] }], [{ traces: ['b', 'x'] }]]);
    expect(s.calls).toEqual([['x'], ['a', 'x'], ['b', 'x']]);
  });

  it('given a refresh whose trace is not stored yet, when others arrive, then they are answered and it is answered once the trace is stored', async () => {
    const stored = new Set(['a']);
    const s = store(stored);
    const batcher = new TraceSummaryBatcher(s.source);
    const waiting = batcher.summarise('p', [['late']], [spec], 5000);
    expect(await batcher.summarise('p', [['a']], [spec], 5000)).toEqual([{ traces: ['a'] }]);
    stored.add('late');
    expect(await waiting).toEqual([{ traces: ['late'] }]);
  });

  it('given a trace never stored, when its wait ends, then it is answered with what is there', async () => {
    const batcher = new TraceSummaryBatcher(store(new Set()).source);
    expect(await batcher.summarise('p', [['never']], [spec], 120)).toEqual([{ traces: [] }]);
  });

  it('given the store failing, when a batch runs, then each refresh of it is refused as unavailable and the next batch still runs', async () => {
    const s = store(new Set(['a']));
    const batcher = new TraceSummaryBatcher(s.source);
    await expect(batcher.summarise('p', [['broken']], [spec], 1000)).rejects.toMatchObject({ code: 'read_model_unavailable' });
    expect(await batcher.summarise('p', [['a']], [spec], 1000)).toEqual([{ traces: ['a'] }]);
  });

  it('given refreshes with different specs, when they wait together, then each set of specs gets its own statement', async () => {
    const s = store(new Set(['a', 'b', 'c']));
    const batcher = new TraceSummaryBatcher(s.source);
    s.hold();
    const first = batcher.summarise('p', [['a']], [spec], 1000);
    const other = [{ type: 'binary', path: 'score' }];
    const mixed = [batcher.summarise('p', [['b']], [other], 1000), batcher.summarise('p', [['c']], [spec], 1000)];
    s.release();
    await first;
    expect(await Promise.all(mixed)).toEqual([[{ traces: ['b'] }], [{ traces: ['c'] }]]);
    expect(s.calls).toEqual([['a'], ['b'], ['c']]);
  });
});
