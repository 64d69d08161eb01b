import { isJsonObject } from './json-object.ts';
import type { JsonObject, JsonValue, Span } from './span.ts';

/** The part of a span the roll-up needs: its place in the tree and its incremental metrics. */
export interface MetricSkeleton {
  span_id: string;
  parent_id?: string;
  tokens?: Readonly<Record<string, number>>;
  costs?: Readonly<Record<string, number>>;
  errors?: number;
}

/** Cumulative metrics of one span: its own incremental values plus those of its whole subtree. */
export interface Cumulative {
  tokens: Record<string, number>;
  costs: Record<string, number>;
  errors: number;
}

// Always present in a cumulative vector, 0 when missing; other components (cache_read,
// reasoning, …) appear when some span of the subtree has them. `total` is summed, never derived.
const BASE_COMPONENTS = ['prompt', 'completion', 'total'] as const;

/**
 * Reference §2 "Roll-up", over every known span of ONE trace (from any number of requests, not
 * only the current one): cumulative(span) = incremental(span) + Σ cumulative(children), component
 * by component for tokens and costs, and for the error count. Duration is never rolled up.
 *
 * - A leaf's cumulative equals its incremental values.
 * - A span whose parent is unknown (not yet arrived, or never sent) is the root of its own subtree;
 *   when the parent arrives later, the next call attaches it.
 * - Duplicate span_ids: the last one wins.
 * - Cycles (a parent chain that loops) are broken at the smallest span_id of the loop, so the
 *   result does not depend on input order; every span gets a value and the function terminates.
 * - Children are summed in span_id order, so float sums are reproducible across calls.
 */
export function rollupTrace(spans: readonly MetricSkeleton[]): Map<string, Cumulative> {
  const byId = new Map<string, MetricSkeleton>();
  for (const s of spans) byId.set(s.span_id, s);
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const [id, s] of byId) {
    const parent = s.parent_id;
    if (parent === undefined || parent === id || !byId.has(parent)) {
      roots.push(id);
      continue;
    }
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [id]);
    else list.push(id);
  }
  for (const list of children.values()) list.sort(compareIds);
  roots.sort(compareIds);

  const result = new Map<string, Cumulative>();
  const state = new Map<string, 'open' | 'done'>();
  for (const root of roots) visit(root, byId, children, state, result);
  if (result.size < byId.size) {
    // Whatever is left hangs off a cycle: walk up from each leftover to find the loop, break it.
    const leftover = [...byId.keys()].filter((id) => !state.has(id)).sort(compareIds);
    for (const start of leftover) {
      if (state.has(start)) continue;
      visit(cycleRoot(start, byId), byId, children, state, result);
    }
  }
  return result;
}

/** The incremental metrics of a normalised span. */
export function skeletonOf(span: Span): MetricSkeleton {
  const metrics = agMetrics(span);
  const skeleton: MetricSkeleton = { span_id: span.span_id };
  if (span.parent_id !== undefined) skeleton.parent_id = span.parent_id;
  const tokens = numericVector(entry(metrics?.tokens, 'incremental'));
  if (tokens !== undefined) skeleton.tokens = tokens;
  const costs = numericVector(entry(metrics?.costs, 'incremental'));
  if (costs !== undefined) skeleton.costs = costs;
  const errors = entry(metrics?.errors, 'incremental');
  if (typeof errors === 'number') skeleton.errors = errors;
  return skeleton;
}

/** The cumulative metrics a span currently carries (missing parts read as empty / 0). */
export function readCumulative(span: Span): Cumulative {
  const metrics = agMetrics(span);
  const errors = entry(metrics?.errors, 'cumulative');
  return {
    tokens: numericVector(entry(metrics?.tokens, 'cumulative')) ?? {},
    costs: numericVector(entry(metrics?.costs, 'cumulative')) ?? {},
    errors: typeof errors === 'number' ? errors : 0,
  };
}

/**
 * Writes `ag.metrics.{tokens,costs}.cumulative` when some component is non-zero, and
 * `ag.metrics.errors.cumulative` when non-zero; otherwise a value the client sent stays (as in the
 * reference). Returns the same object when nothing is written, else a copy along the changed path.
 */
export function applyCumulative(span: Span, c: Cumulative): Span {
  const writeTokens = anyNonZero(c.tokens);
  const writeCosts = anyNonZero(c.costs);
  const writeErrors = c.errors !== 0;
  if (!writeTokens && !writeCosts && !writeErrors) return span;
  const ag = isJsonObject(span.attributes.ag) ? span.attributes.ag : {};
  const metrics: JsonObject = isJsonObject(ag.metrics) ? { ...ag.metrics } : {};
  if (writeTokens) metrics.tokens = { ...objectAt(metrics.tokens), cumulative: { ...c.tokens } };
  if (writeCosts) metrics.costs = { ...objectAt(metrics.costs), cumulative: { ...c.costs } };
  if (writeErrors) metrics.errors = { ...objectAt(metrics.errors), cumulative: c.errors };
  return { ...span, attributes: { ...span.attributes, ag: { ...ag, metrics } } };
}

/** Equal component by component (missing = 0), with a relative tolerance for float noise. */
export function cumulativeEquals(a: Cumulative, b: Cumulative): boolean {
  return close(a.errors, b.errors) && vectorsEqual(a.tokens, b.tokens) && vectorsEqual(a.costs, b.costs);
}

/**
 * The projector's step: all known spans of one trace (stored + newly arrived) → the spans whose
 * cumulative metrics change, already updated. Spans not returned need no re-store.
 */
export function recomputeCumulatives(spans: readonly Span[]): Span[] {
  const cumulative = rollupTrace(spans.map(skeletonOf));
  const changed: Span[] = [];
  const seen = new Set<string>();
  // Last duplicate wins, as in rollupTrace.
  for (let i = spans.length - 1; i >= 0; i--) {
    const span = spans[i] as Span;
    if (seen.has(span.span_id)) continue;
    seen.add(span.span_id);
    const c = cumulative.get(span.span_id);
    if (c === undefined) continue;
    const next = applyCumulative(span, c);
    if (next !== span && !cumulativeEquals(readCumulative(span), readCumulative(next))) changed.push(next);
  }
  return changed.reverse();
}

function visit(
  root: string,
  byId: ReadonlyMap<string, MetricSkeleton>,
  children: ReadonlyMap<string, string[]>,
  state: Map<string, 'open' | 'done'>,
  result: Map<string, Cumulative>,
): void {
  // Iterative post-order: a trace may be thousands of spans deep.
  const stack: Array<{ id: string; next: number }> = [{ id: root, next: 0 }];
  state.set(root, 'open');
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { id: string; next: number };
    const kids = children.get(frame.id);
    if (kids !== undefined && frame.next < kids.length) {
      const kid = kids[frame.next++] as string;
      // An open kid is an ancestor: the edge that closes a cycle, ignored.
      if (!state.has(kid)) {
        state.set(kid, 'open');
        stack.push({ id: kid, next: 0 });
      }
      continue;
    }
    stack.pop();
    const own = byId.get(frame.id) as MetricSkeleton;
    const c: Cumulative = { tokens: baseVector(own.tokens), costs: baseVector(own.costs), errors: own.errors ?? 0 };
    if (kids !== undefined) {
      for (const kid of kids) {
        const kc = state.get(kid) === 'done' ? result.get(kid) : undefined;
        if (kc === undefined) continue;
        addInto(c.tokens, kc.tokens);
        addInto(c.costs, kc.costs);
        c.errors += kc.errors;
      }
    }
    state.set(frame.id, 'done');
    result.set(frame.id, c);
  }
}

// From a span not reachable from any root, the parent chain must loop; return the loop's smallest id.
function cycleRoot(start: string, byId: ReadonlyMap<string, MetricSkeleton>): string {
  const seen = new Set<string>();
  let id = start;
  while (!seen.has(id)) {
    seen.add(id);
    id = byId.get(id)?.parent_id as string;
  }
  let smallest = id;
  for (let cur = byId.get(id)?.parent_id as string; cur !== id; cur = byId.get(cur)?.parent_id as string) {
    if (compareIds(cur, smallest) < 0) smallest = cur;
  }
  return smallest;
}

function baseVector(incremental: Readonly<Record<string, number>> | undefined): Record<string, number> {
  const v: Record<string, number> = { prompt: 0, completion: 0, total: 0 };
  if (incremental !== undefined) {
    for (const k in incremental) {
      const n = incremental[k];
      if (typeof n === 'number') v[k] = (v[k] ?? 0) + n;
    }
  }
  return v;
}

function addInto(target: Record<string, number>, source: Readonly<Record<string, number>>): void {
  for (const k in source) target[k] = (target[k] ?? 0) + (source[k] as number);
}

function vectorsEqual(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  for (const k in a) if (!close(a[k] as number, b[k] ?? 0)) return false;
  for (const k in b) if (!(k in a) && !close(0, b[k] as number)) return false;
  return true;
}

function close(x: number, y: number): boolean {
  return x === y || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
}

function anyNonZero(v: Readonly<Record<string, number>>): boolean {
  for (const k in v) if (v[k] !== 0) return true;
  return false;
}

function agMetrics(span: Span): JsonObject | undefined {
  const ag = span.attributes.ag;
  if (!isJsonObject(ag)) return undefined;
  return isJsonObject(ag.metrics) ? ag.metrics : undefined;
}

function entry(section: JsonValue | undefined, key: string): JsonValue | undefined {
  return isJsonObject(section) ? section[key] : undefined;
}

function objectAt(v: JsonValue | undefined): JsonObject {
  return isJsonObject(v) ? v : {};
}

function numericVector(v: JsonValue | undefined): Record<string, number> | undefined {
  if (!isJsonObject(v)) return undefined;
  const out: Record<string, number> = {};
  for (const k in v) {
    const n = v[k];
    if (typeof n === 'number') out[k] = n;
  }
  return out;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
