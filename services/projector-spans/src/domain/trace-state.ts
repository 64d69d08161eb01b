// Pure state transitions of one trace in the span read model. Given the trace's live rows and one
// event, returns the rows to write (new/changed spans, re-rolled ancestors, tombstones) and the new
// live rows. Cumulative metrics are recomputed over every span known for the trace, so they are right
// even when the trace's spans arrive in several requests.
import { rollupTrace, type MetricSkeleton } from '@llm/span-model';
import type { DecodedEvent } from '@llm/events';
import { timeUs } from '@llm/span-table';
import { rootsOnly, rowFromRecord, type SpanRow } from './span-row.ts';

export type TraceRows = Map<string, SpanRow>;

export interface Transition {
  next: TraceRows;
  writes: SpanRow[];
}

type TraceEvent = DecodedEvent<'tracing.spans.upserted'> | DecodedEvent<'tracing.trace.replaced'> | DecodedEvent<'tracing.trace.deleted'>;

export function applyTraceEvent(current: TraceRows, e: TraceEvent, version: bigint): Transition {
  const v = version.toString();
  switch (e.type) {
    case 'tracing.spans.upserted':
    case 'tracing.trace.replaced': {
      const next: TraceRows = e.type === 'tracing.trace.replaced' ? new Map() : new Map(current);
      const touched = new Set<string>();
      for (const rec of e.payload.spans) {
        next.set(rec.span_id, rowFromRecord(e.projectId, rec, e.timeUs, version));
        touched.add(rec.span_id);
      }
      // A row leaves the table through a tombstone under its own key: a span the replacement does
      // not carry, or a span whose start_time (part of the table's ordering key) moved.
      const writes: SpanRow[] = [];
      for (const [id, row] of current) {
        const now = next.get(id);
        if (now === undefined || timeUs(now.start_time) !== timeUs(row.start_time)) writes.push({ ...row, version: v, is_deleted: 1 });
        // A root that gains a parent under the same key leaves the roots table only (trace_roots).
        else if (row.parent_id === '' && now.parent_id !== '') writes.push(rootsOnly({ ...row, version: v, is_deleted: 1 }));
      }
      for (const row of rerolled(next, touched, v)) writes.push(row);
      return { next, writes };
    }
    case 'tracing.trace.deleted': {
      const writes = [...current.values()].map((row) => ({ ...row, version: v, is_deleted: 1 }));
      return { next: new Map(), writes };
    }
    default: {
      const never: never = e;
      throw new Error(`unhandled trace event ${String(never)}`);
    }
  }
}

/** Recomputes cumulatives; yields touched rows plus every other row whose cumulative changed. */
function* rerolled(rows: TraceRows, touched: Set<string>, version: string): Generator<SpanRow> {
  const skeletons: MetricSkeleton[] = [];
  for (const r of rows.values()) {
    skeletons.push({
      span_id: r.span_id,
      ...(r.parent_id ? { parent_id: r.parent_id } : {}),
      tokens: r.tokens_incremental,
      costs: r.costs_incremental,
      errors: r.errors_incremental,
    });
  }
  const cumulative = rollupTrace(skeletons);
  for (const [id, r] of rows) {
    const c = cumulative.get(id);
    const tokens = c?.tokens ?? {};
    const costs = c?.costs ?? {};
    const errors = c?.errors ?? 0;
    const changed = !sameMap(tokens, r.tokens_cumulative) || !sameMap(costs, r.costs_cumulative) || errors !== r.errors_cumulative;
    if (!changed && !touched.has(id)) continue;
    const updated: SpanRow = { ...r, tokens_cumulative: tokens, costs_cumulative: costs, errors_cumulative: errors, version };
    rows.set(id, updated);
    yield updated;
  }
}

function sameMap(a: Record<string, number>, b: Record<string, number>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (Math.abs((a[k] ?? 0) - (b[k] ?? NaN)) > 1e-12 || !(k in b)) return false;
  return true;
}
