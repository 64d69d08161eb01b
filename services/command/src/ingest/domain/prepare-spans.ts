// Normalises a request's spans one by one (a span that cannot be parsed is counted out with its
// reason, never half-stored), and names the rejected spans for the response.
import { normalizeBatch, type RawSpan, type Span } from '@llm/span-model';

export interface RejectedSpan {
  index: number;
  trace_id?: string;
  span_id?: string;
  reason: string;
}

export interface PreparedSpans {
  accepted: Span[];
  rejected: RejectedSpan[];
}

export function prepareSpans(raw: RawSpan[]): PreparedSpans {
  const b = normalizeBatch(raw);
  return {
    accepted: b.spans,
    rejected: b.rejected.map((r) => {
      const s = raw[r.index];
      const out: RejectedSpan = { index: r.index, reason: r.error };
      if (typeof s?.trace_id === 'string') out.trace_id = s.trace_id;
      if (typeof s?.span_id === 'string') out.span_id = s.span_id;
      return out;
    }),
  };
}

/** Summary line for OTLP partial_success and native responses. */
export function rejectionSummary(rejected: RejectedSpan[], max = 5): string {
  const shown = rejected.slice(0, max).map((r) => `span ${r.index}${r.span_id ? ` (${r.span_id})` : ''}: ${r.reason}`);
  return shown.join('; ') + (rejected.length > max ? `; and ${rejected.length - max} more` : '');
}
