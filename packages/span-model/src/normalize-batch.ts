import { normalizeSpan, type NormalizeOptions } from './normalize-span.ts';
import type { RawSpan, Span } from './span.ts';
import { deriveTraceTypes } from './trace-type.ts';

export interface RejectedSpan {
  /** Position in the input list. */
  index: number;
  error: string;
}

export interface NormalizedBatch {
  /** Accepted spans, in input order, with per-trace derivations applied. */
  spans: Span[];
  rejected: RejectedSpan[];
}

/**
 * One ingest request: every span normalised on its own (a bad span is rejected alone), then the
 * per-batch derivation (trace type). Cumulative metrics are not computed here: they span
 * requests, so the projector computes them with `rollupTrace` over everything stored.
 */
export function normalizeBatch(raws: readonly RawSpan[], options: NormalizeOptions = {}): NormalizedBatch {
  const spans: Span[] = [];
  const rejected: RejectedSpan[] = [];
  for (let index = 0; index < raws.length; index++) {
    const r = normalizeSpan(raws[index] as RawSpan, options);
    if (r.ok) spans.push(r.span);
    else rejected.push({ index, error: r.error });
  }
  return { spans: deriveTraceTypes(spans), rejected };
}
