// The canonical trace shape of trace-focused reads: `{trace_id, spans: {<top span name>: Node}}`.
// Nothing is dropped: spans whose parent has not arrived sit beside the roots marked `orphan: true`
// (the reference system leaves them and their subtrees out), and a trace none of whose spans is a
// root is still returned, marked `root_missing: true` (the reference returns nothing for it).
import { buildTraceTree, childrenByName, type Span, type TraceTreeNode } from '@llm/span-model';

export interface CanonicalTrace {
  trace_id: string;
  spans: Record<string, TraceTreeNode | TraceTreeNode[]>;
  root_missing?: true;
}

export function canonicalTraces(spans: readonly Span[]): CanonicalTrace[] {
  return buildTraceTree(spans).map((t) => ({
    trace_id: t.trace_id,
    spans: childrenByName([...t.roots, ...t.orphans]),
    ...(t.roots.length === 0 ? { root_missing: true as const } : {}),
  }));
}
