import { describe, expect, it } from 'vitest';

import type { Span } from '../src/span.ts';
import { buildTraceTree, toOtelTracingTree, type TraceTreeNode } from '../src/trace-tree.ts';
import { sid, span, TRACE_A, TRACE_B } from './fixtures/builders.ts';

const T0 = 1_700_000_000;

function names(nodes: readonly TraceTreeNode[]): string[] {
  return nodes.map((n) => n.span_name);
}

describe('buildTraceTree', () => {
  it('when children repeat a name, then they are a list sorted by start time; unique names are single nodes', () => {
    const spans: Span[] = [
      span({ span_id: sid(3), parent_id: sid(1), span_name: 'chat', start_time: T0 + 2 }),
      span({ span_id: sid(1), span_name: 'root', start_time: T0 }),
      span({ span_id: sid(2), parent_id: sid(1), span_name: 'chat', start_time: T0 + 1 }),
      span({ span_id: sid(4), parent_id: sid(1), span_name: 'tool', start_time: T0 + 3 }),
      span({ span_id: sid(5), parent_id: sid(4), span_name: 'leaf', start_time: T0 + 4 }),
    ];
    const [tree] = buildTraceTree(spans);
    expect(tree?.orphans).toEqual([]);
    const root = tree?.roots[0] as TraceTreeNode;
    const chats = root.spans?.chat as TraceTreeNode[];
    expect(chats.map((n) => n.span_id)).toEqual([sid(2), sid(3)]);
    const tool = root.spans?.tool as TraceTreeNode;
    expect(tool.spans?.leaf).toMatchObject({ span_id: sid(5) });
    expect((tool.spans?.leaf as TraceTreeNode).spans).toBeUndefined();
  });

  it('when a parent is missing, then the span is an orphan with its subtree, not dropped', () => {
    const [tree] = buildTraceTree([
      span({ span_id: sid(1), span_name: 'root', start_time: T0 }),
      span({ span_id: sid(7), parent_id: sid(6), span_name: 'lost', start_time: T0 + 1 }),
      span({ span_id: sid(8), parent_id: sid(7), span_name: 'lost-child', start_time: T0 + 2 }),
    ]);
    expect(names(tree?.roots ?? [])).toEqual(['root']);
    expect(names(tree?.orphans ?? [])).toEqual(['lost']);
    expect(tree?.orphans[0]?.spans?.['lost-child']).toMatchObject({ span_id: sid(8) });
  });

  it('when a child starts before its parent, then it still attaches', () => {
    const [tree] = buildTraceTree([
      span({ span_id: sid(2), parent_id: sid(1), span_name: 'early', start_time: T0 - 5 }),
      span({ span_id: sid(1), span_name: 'root', start_time: T0 }),
    ]);
    expect(tree?.roots[0]?.spans?.early).toMatchObject({ span_id: sid(2) });
  });

  it('when parents form a loop, then the loop is cut at its earliest span (an orphan) and the tree serialises', () => {
    const [tree] = buildTraceTree([
      span({ span_id: sid(1), parent_id: sid(2), span_name: 'a', start_time: T0 }),
      span({ span_id: sid(2), parent_id: sid(1), span_name: 'b', start_time: T0 + 1 }),
    ]);
    expect(names(tree?.orphans ?? [])).toEqual(['a']);
    expect(tree?.orphans[0]?.spans?.b).toMatchObject({ span_id: sid(2) });
    expect(() => JSON.stringify(tree)).not.toThrow();
  });

  it('when spans of several traces are given, then there is one tree per trace, by start time', () => {
    const trees = buildTraceTree([
      span({ trace_id: TRACE_B, span_id: sid(1), start_time: T0 + 10 }),
      span({ trace_id: TRACE_A, span_id: sid(1), start_time: T0 }),
    ]);
    expect(trees.map((t) => t.trace_id)).toEqual([TRACE_A, TRACE_B]);
  });

  it('when building, then input spans are not mutated', () => {
    const input = [span({ span_id: sid(1) }), span({ span_id: sid(2), parent_id: sid(1) })];
    const snapshot = structuredClone(input);
    buildTraceTree(input);
    expect(input).toEqual(snapshot);
  });
});

describe('toOtelTracingTree', () => {
  const spans = [
    span({ span_id: sid(1), span_name: 'root', start_time: T0 }),
    span({ span_id: sid(2), parent_id: sid(1), span_name: 'child', start_time: T0 + 1 }),
    span({ span_id: sid(9), parent_id: sid(8), span_name: 'orphan', start_time: T0 + 2 }),
  ];

  it('when converting, then the shape is traces → trace_id → spans keyed by name, orphans included', () => {
    const out = toOtelTracingTree(spans);
    expect(Object.keys(out.traces)).toEqual([TRACE_A]);
    const top = out.traces[TRACE_A]?.spans ?? {};
    expect(Object.keys(top)).toEqual(['root', 'orphan']);
    expect((top.root as TraceTreeNode).spans?.child).toMatchObject({ span_id: sid(2) });
  });

  it('when orphans are excluded, then only roots appear (reference behaviour)', () => {
    expect(Object.keys(toOtelTracingTree(spans, { includeOrphans: false }).traces[TRACE_A]?.spans ?? {})).toEqual(['root']);
  });
});
