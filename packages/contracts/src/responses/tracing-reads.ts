// zod schemas of the tracing read answers (services/query read-routes, query-routes,
// activity-routes): the `{count, …}` envelopes of the interface ("Query responses").
import { z } from 'zod';
import { canonicalTraceView, otelTracesView, spanBody } from './span-view.ts';

const count = z.number().int().min(0);

/** The cursor a paged answer returns; sent back as `windowing.next`. */
export const pageWindowing = z.object({
  limit: z.number().int(),
  order: z.enum(['ascending', 'descending']).optional(),
  next: z.string(),
});

/** GET /traces/{trace_id}: `{count: 1, trace}` or `{count: 0}`. */
export const traceResponse = z.object({ count, trace: canonicalTraceView.optional() });
/** GET /traces and POST /traces/query. */
export const tracesResponse = z.object({ count, traces: z.array(canonicalTraceView), windowing: pageWindowing.optional() });
/** GET /spans/{trace_id}/{span_id}: `{count: 1, span}` or `{count: 0}`. */
export const spanResponse = z.object({ count, span: spanBody.optional() });
/** GET /spans and POST /spans/query. */
export const spansResponse = z.object({ count, spans: z.array(spanBody), windowing: pageWindowing.optional() });

/**
 * The deprecated reads (GET /tracing/traces/{id}, POST /tracing/spans/query): a flat `spans` list
 * (focus span, or format opentelemetry), or the per-trace map; `{count: 0}` when nothing is found.
 */
export const otelTracingResponse = z.object({
  count,
  spans: z.array(spanBody).optional(),
  traces: otelTracesView.optional(),
  windowing: pageWindowing.optional(),
});

/** POST /spans/sessions/query (and /tracing/sessions/query). */
export const sessionIdsResponse = z.object({ count, session_ids: z.array(z.string()), windowing: pageWindowing.optional() });
/** POST /spans/users/query (and /tracing/users/query). */
export const userIdsResponse = z.object({ count, user_ids: z.array(z.string()), windowing: pageWindowing.optional() });
