// zod schemas of the tracing HTTP bodies (request and response).
import { z } from 'zod';

const json: z.ZodType<unknown> = z.unknown();
const timestamp = z.union([z.string(), z.number()]).nullish();

const SPAN_KIND = z.enum([
  'SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER',
]);
const STATUS_CODE = z.enum(['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR']);
const attributes = z.record(z.string(), json);

export const linkInput = z.object({ trace_id: z.string(), span_id: z.string(), attributes: attributes.nullish() });
export const eventInput = z.object({ name: z.string(), timestamp, attributes: attributes.nullish() });
export const referenceInput = z.object({
  id: z.string().nullish(), slug: z.string().nullish(), version: z.union([z.string(), z.number()]).nullish(), attributes: attributes.nullish(),
});

/** Native span shape (spec "Span (native ingest shape)"). Id formats are checked per span later. */
export const spanInput = z.object({
  trace_id: z.string(),
  span_id: z.string(),
  parent_id: z.string().nullish(),
  span_name: z.string().nullish(),
  span_type: z.string().nullish(),
  span_kind: SPAN_KIND.nullish(),
  status_code: STATUS_CODE.nullish(),
  status_message: z.string().nullish(),
  start_time: timestamp,
  end_time: timestamp,
  attributes: attributes.nullish(),
  events: z.array(eventInput).nullish(),
  links: z.array(linkInput).nullish(),
  references: z.array(referenceInput).nullish(),
}).passthrough();
export type SpanInput = z.infer<typeof spanInput>;

/** A tree node: a span plus its children keyed by name (one node or a list when names repeat). */
export type SpanNodeInput = SpanInput & { spans?: Record<string, SpanNodeInput | SpanNodeInput[]> | null };
export const spanNodeInput: z.ZodType<SpanNodeInput> = z.lazy(() =>
  spanInput.extend({ spans: z.record(z.string(), z.union([spanNodeInput, z.array(spanNodeInput)])).nullish() }),
) as z.ZodType<SpanNodeInput>;

export const spanTree = z.record(z.string(), z.union([spanNodeInput, z.array(spanNodeInput)]));

/** OTelTracingRequest: a flat `spans` list or a `traces` tree keyed by trace id. */
export const otelTracingRequest = z.object({
  spans: z.array(spanInput).nullish(),
  traces: z.record(z.string(), z.object({ spans: spanTree.nullish() })).nullish(),
});

/** Canonical TraceRequest: `{trace: {trace_id, spans: {<name>: Node}}}`. */
export const traceRecordInput = z.object({ trace_id: z.string().nullish(), spans: spanTree.nullish() });
export const traceRequest = z.object({ trace: traceRecordInput.nullish() });
export const tracesRequest = z.object({ traces: z.array(traceRecordInput).nullish() });

export const simpleTraceRequest = z.object({
  trace: z.object({
    origin: z.enum(['human', 'auto', 'custom']).default('custom'),
    kind: z.enum(['adhoc', 'eval', 'play']).default('adhoc'),
    channel: z.enum(['sdk', 'api', 'web', 'otlp']).default('api'),
    data: z.record(z.string(), json),
    tags: z.record(z.string(), json).nullish(),
    meta: z.record(z.string(), json).nullish(),
    references: z.record(z.string(), referenceInput).default({}),
    links: z.union([z.record(z.string(), linkInput.partial({ span_id: true })), z.array(linkInput)]).default({}),
  }),
});
