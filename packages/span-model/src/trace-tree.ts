import type { Span } from './span.ts';
import { epochMicros } from './timestamps.ts';

/**
 * A span in a trace-focused response, with its children keyed by span_name (a list when names
 * repeat). `orphan: true` marks a span placed at the top although it has a parent_id: its parent has
 * not arrived (or never will), or a parent loop was cut there.
 */
export type TraceTreeNode = Span & { spans?: Record<string, TraceTreeNode | TraceTreeNode[]>; orphan?: true };

export interface TraceTree {
  trace_id: string;
  /** Spans without parent_id, by start_time. */
  roots: TraceTreeNode[];
  /**
   * Spans whose parent is not among the given spans (not arrived yet, or never sent), and the
   * span where a parent loop was cut. The reference system silently leaves them (and their whole
   * subtree) out of trace reads; here the caller decides — `toOtelTracingTree` shows them next to
   * the roots by default.
   */
  orphans: TraceTreeNode[];
}

/**
 * Reference §5.1 "Trace tree construction", for spans of one or more traces: one tree per
 * trace_id (ordered by the first top-level span's start_time), children sorted by start_time
 * (then span_id), stored under their parent's `spans` by name; leaves have no `spans` key.
 * A child attaches to its parent even if it starts before it (clock skew between services).
 * Parent loops are cut at their earliest span, which becomes an orphan, so the result is always
 * a finite, JSON-serialisable tree. Duplicate span ids: the last one wins. Input is not mutated.
 */
export function buildTraceTree(spans: readonly Span[]): TraceTree[] {
  const groups = new Map<string, Map<string, Span>>();
  for (const span of spans) {
    let group = groups.get(span.trace_id);
    if (group === undefined) groups.set(span.trace_id, (group = new Map()));
    group.set(span.span_id, span);
  }
  const trees: Array<{ tree: TraceTree; first: number }> = [];
  for (const [traceId, group] of groups) {
    const tree = buildOne(traceId, group);
    const top = tree.roots[0] ?? tree.orphans[0];
    trees.push({ tree, first: top === undefined ? 0 : startOf(top) });
  }
  trees.sort((a, b) => a.first - b.first || compare(a.tree.trace_id, b.tree.trace_id));
  return trees.map((t) => t.tree);
}

/** Nodes keyed by span_name; a name that repeats maps to a list, in the given order. */
export function childrenByName(nodes: readonly TraceTreeNode[]): Record<string, TraceTreeNode | TraceTreeNode[]> {
  const out: Record<string, TraceTreeNode | TraceTreeNode[]> = {};
  for (const node of nodes) {
    const name = node.span_name;
    const existing = Object.hasOwn(out, name) ? out[name] : undefined;
    let value: TraceTreeNode | TraceTreeNode[];
    if (existing === undefined) value = node;
    else if (Array.isArray(existing)) (value = existing).push(node);
    else value = [existing, node];
    if (name === '__proto__') Object.defineProperty(out, name, { value, writable: true, enumerable: true, configurable: true });
    else out[name] = value;
  }
  return out;
}

export interface OtelTracingTree {
  traces: Record<string, { spans: Record<string, TraceTreeNode | TraceTreeNode[]> }>;
}

/**
 * The deprecated `{traces: {<trace_id>: {spans: {<name>: Node | Node[]}}}}` shape. Orphans are
 * listed next to the roots unless `includeOrphans` is false (the reference system's behaviour).
 */
export function toOtelTracingTree(spans: readonly Span[], options: { includeOrphans?: boolean } = {}): OtelTracingTree {
  const includeOrphans = options.includeOrphans ?? true;
  const traces: OtelTracingTree['traces'] = {};
  for (const tree of buildTraceTree(spans)) {
    const top = includeOrphans ? [...tree.roots, ...tree.orphans].sort(byStart) : tree.roots;
    traces[tree.trace_id] = { spans: childrenByName(top) };
  }
  return { traces };
}

function buildOne(traceId: string, group: ReadonlyMap<string, Span>): TraceTree {
  const sorted = [...group.values()].sort(byStart);
  const order = new Map<string, number>();
  sorted.forEach((s, i) => order.set(s.span_id, i));
  // parent[i] = index of the parent, or -1 for roots and orphans.
  const parent = sorted.map((s) => {
    const p = s.parent_id === undefined || s.parent_id === s.span_id ? undefined : order.get(s.parent_id);
    return p === undefined ? -1 : p;
  });
  const kids: number[][] = sorted.map(() => []);
  parent.forEach((p, i) => {
    if (p >= 0) (kids[p] as number[]).push(i);
  });
  const isOrphan = sorted.map((s, i) => s.parent_id !== undefined && parent[i] === -1);

  const reached = new Uint8Array(sorted.length);
  const reach = (from: number): void => {
    const stack = [from];
    reached[from] = 1;
    while (stack.length > 0) {
      for (const k of kids[stack.pop() as number] as number[]) {
        if (reached[k] === 0) {
          reached[k] = 1;
          stack.push(k);
        }
      }
    }
  };
  parent.forEach((p, i) => {
    if (p === -1) reach(i);
  });
  // Unreached spans sit on or below a parent loop: cut each loop at its earliest span.
  for (let i = 0; i < sorted.length; i++) {
    if (reached[i] === 1) continue;
    const seen = new Set<number>();
    let j = i;
    while (!seen.has(j)) {
      seen.add(j);
      j = parent[j] as number;
    }
    let cut = j;
    for (let k = parent[j] as number; k !== j; k = parent[k] as number) if (k < cut) cut = k;
    const p = parent[cut] as number;
    kids[p] = (kids[p] as number[]).filter((k) => k !== cut);
    parent[cut] = -1;
    isOrphan[cut] = true;
    reach(cut);
  }

  const nodes: TraceTreeNode[] = sorted.map((s) => ({ ...s }));
  nodes.forEach((node, i) => {
    const children = kids[i] as number[];
    // kids were filled in start order, so each list is already sorted.
    if (children.length > 0) node.spans = childrenByName(children.map((k) => nodes[k] as TraceTreeNode));
  });
  const roots: TraceTreeNode[] = [];
  const orphans: TraceTreeNode[] = [];
  parent.forEach((p, i) => {
    if (p !== -1) return;
    const node = nodes[i] as TraceTreeNode;
    if (isOrphan[i] === true) {
      node.orphan = true;
      orphans.push(node);
    } else roots.push(node);
  });
  return { trace_id: traceId, roots, orphans };
}

// Sorting compares each span many times; parse its start once.
const starts = new WeakMap<Span, number>();

function startOf(span: Span): number {
  let t = starts.get(span);
  if (t === undefined) starts.set(span, (t = epochMicros(span.start_time) ?? 0));
  return t;
}

function byStart(a: Span, b: Span): number {
  return startOf(a) - startOf(b) || compare(a.span_id, b.span_id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
