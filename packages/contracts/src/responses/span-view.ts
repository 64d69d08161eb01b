// zod schemas of the span as the query side returns it (packages/span-read/src/span-view.ts) and of
// the trace trees built from it (span-model trace-tree.ts). Output schemas: they describe what the
// handlers send, and the end-to-end client checks every answer against them through the OpenAPI
// document. Known fields are closed; attributes and reference/link attributes are open JSON, since
// they hold whatever the client sent.
import { z } from 'zod';

/** 32 lowercase hex: every trace id is normalised to this form at ingest (parseTraceId). */
export const traceIdView = z.string().regex(/^[0-9a-f]{32}$/);
/** 16 (OTel) or 32 lowercase hex: span ids round-trip as sent, lower-cased (parseSpanId). */
export const spanIdView = z.string().regex(/^[0-9a-f]{16}(?:[0-9a-f]{16})?$/);

const openJson = z.record(z.string(), z.unknown());
/** ISO-8601 UTC, `Z`-suffixed; the fraction appears only when non-zero. */
const isoTime = z.string();

export const spanKindView = z.enum([
  'SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER',
]);
export const statusCodeView = z.enum(['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR']);
export const spanTypeView = z.enum(['agent', 'chain', 'workflow', 'task', 'tool', 'embedding', 'query', 'llm', 'completion', 'chat', 'rerank', 'unknown']);
export const traceTypeView = z.enum(['invocation', 'annotation', 'unknown']);

export const linkView = z.object({ trace_id: traceIdView, span_id: spanIdView, attributes: openJson.optional() });

/** The canonical span of every read (spans, trees, simple traces are derived from it). */
export const spanBody = z.object({
  trace_id: traceIdView,
  span_id: spanIdView,
  parent_id: spanIdView.optional(),
  span_name: z.string(),
  span_kind: spanKindView,
  span_type: spanTypeView,
  trace_type: traceTypeView,
  status_code: statusCodeView,
  status_message: z.string().optional(),
  start_time: isoTime,
  end_time: isoTime,
  /** Nested attributes; `ag.type`, `ag.data` and `ag.metrics` are always there. */
  attributes: openJson,
  events: z.array(z.object({ name: z.string(), timestamp: isoTime, attributes: openJson.optional() })),
  links: z.array(linkView).optional(),
  references: z.array(z.object({ id: z.string().optional(), slug: z.string().optional(), version: z.string().optional(), attributes: openJson.optional() })),
  hashes: z.array(z.object({ id: z.string(), attributes: openJson })),
  session_id: z.string().optional(),
  user_id: z.string().optional(),
});
export type SpanBody = z.infer<typeof spanBody>;

/** A span of a trace tree: its children keyed by span_name (a list when a name repeats). */
export type SpanTreeNodeView = SpanBody & { spans?: Record<string, SpanTreeNodeView | SpanTreeNodeView[]>; orphan?: true };
export const spanTreeNodeView: z.ZodType<SpanTreeNodeView> = spanBody.extend({
  get spans() { return spanTreeView.optional(); },
  /** Placed at the top although it has a parent_id: the parent has not arrived (or a loop was cut there). */
  orphan: z.literal(true).optional(),
});
export const spanTreeView: z.ZodType<Record<string, SpanTreeNodeView | SpanTreeNodeView[]>> = z.record(z.string(), z.union([spanTreeNodeView, z.array(spanTreeNodeView)]));

/** The canonical trace of trace-focused reads: `{trace_id, spans: {<top span name>: Node}}`. */
export const canonicalTraceView = z.object({
  trace_id: traceIdView,
  spans: spanTreeView,
  /** None of the trace's spans is a root (its spans are all shown as orphans). */
  root_missing: z.literal(true).optional(),
});

/** The deprecated per-trace map: `{<trace_id>: {spans: {<name>: Node}}}`. */
export const otelTracesView = z.record(z.string(), z.object({ spans: spanTreeView }));
