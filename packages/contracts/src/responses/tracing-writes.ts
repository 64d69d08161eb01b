// zod schemas of the tracing write answers (services/command tracing-routes, otlp-routes). Writes
// are acknowledged once appended to the log (202), and a span that failed normalisation is named
// in `rejected` instead of being dropped silently.
import { z } from 'zod';
import { spanIdView, traceIdView } from './span-view.ts';

const count = z.number().int().min(0);

/** The spans of a request that were not accepted, with why (index = position in the request). */
export const rejectedSpans = z.object({
  count: z.number().int().min(1),
  spans: z.array(z.object({ index: z.number().int().min(0), trace_id: z.string().optional(), span_id: z.string().optional(), reason: z.string() })),
});

export const spanLink = z.object({ trace_id: traceIdView, span_id: spanIdView });

/** POST /traces, PUT and DELETE /traces/{id}: `{count: 1, trace_id}`, or `{count: 0}` when no span was accepted. */
export const traceIdResponse = z.object({ count, trace_id: traceIdView.optional(), rejected: rejectedSpans.optional() });
/** POST /traces/ingest (deprecated): the accepted trace ids. */
export const traceIdsResponse = z.object({ count, trace_ids: z.array(traceIdView), rejected: rejectedSpans.optional() });
/** The deprecated /tracing writes: the links of the accepted spans (DELETE adds the trace id). */
export const otelLinksResponse = z.object({
  count,
  links: z.array(spanLink),
  trace_id: traceIdView.optional(),
  rejected: rejectedSpans.optional(),
});
/** GET /otlp/v1/traces: the liveness answer of the OTLP receiver. */
export const collectStatusResponse = z.object({ status: z.literal('ready') });
