// zod schemas of the tracing HTTP bodies (request and response).
import { z } from 'zod';
import { jsonObject, openObject, textRecord, texts } from './text.ts';

const timestamp = z.union([texts.shortText, z.number()]).nullish();

const SPAN_KIND = z.enum([
  'SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER',
]);
const STATUS_CODE = z.enum(['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR']);
const attributes = jsonObject;

export const linkInput = z.object({ trace_id: texts.id, span_id: texts.id, attributes: attributes.nullish() });
export const eventInput = z.object({ name: texts.shortText, timestamp, attributes: attributes.nullish() });
export const referenceInput = z.object({
  id: texts.id.nullish(), slug: texts.id.nullish(), version: z.union([texts.id, z.number()]).nullish(), attributes: attributes.nullish(),
});

/**
 * Native span shape (spec "Span (native ingest shape)"). Id formats are checked per span later.
 * Other fields pass through as free-form JSON (session_id, user_id, …; normalisation keeps only
 * the ones it knows).
 */
export const spanInput = openObject({
  trace_id: texts.id,
  span_id: texts.id,
  parent_id: texts.id.nullish(),
  span_name: texts.shortText.nullish(),
  span_type: texts.shortText.nullish(),
  span_kind: SPAN_KIND.nullish(),
  status_code: STATUS_CODE.nullish(),
  status_message: texts.longText.nullish(),
  start_time: timestamp,
  end_time: timestamp,
  attributes: attributes.nullish(),
  events: z.array(eventInput).nullish(),
  links: z.array(linkInput).nullish(),
  references: z.array(referenceInput).nullish(),
});
export type SpanInput = z.infer<typeof spanInput>;

/** A tree node: a span plus its children keyed by name (one node or a list when names repeat). */
export type SpanNodeInput = SpanInput & { spans?: Record<string, SpanNodeInput | SpanNodeInput[]> | null };
export const spanNodeInput: z.ZodType<SpanNodeInput> = z.lazy(() =>
  spanInput.extend({ spans: textRecord(z.union([spanNodeInput, z.array(spanNodeInput)])).nullish() }),
) as z.ZodType<SpanNodeInput>;

export const spanTree = textRecord(z.union([spanNodeInput, z.array(spanNodeInput)]));

/** OTelTracingRequest: a flat `spans` list or a `traces` tree keyed by trace id. */
export const otelTracingRequest = z.object({
  spans: z.array(spanInput).nullish(),
  traces: textRecord(z.object({ spans: spanTree.nullish() })).nullish(),
});

/** Canonical TraceRequest: `{trace: {trace_id, spans: {<name>: Node}}}`. */
export const traceRecordInput = z.object({ trace_id: texts.id.nullish(), spans: spanTree.nullish() });
export const traceRequest = z.object({ trace: traceRecordInput.nullish() });
export const tracesRequest = z.object({ traces: z.array(traceRecordInput).nullish() });

export const simpleTraceRequest = z.object({
  trace: z.object({
    origin: z.enum(['human', 'auto', 'custom']).default('custom'),
    kind: z.enum(['adhoc', 'eval', 'play']).default('adhoc'),
    channel: z.enum(['sdk', 'api', 'web', 'otlp']).default('api'),
    data: jsonObject,
    tags: jsonObject.nullish(),
    meta: jsonObject.nullish(),
    references: textRecord(referenceInput).default({}),
    links: z.union([textRecord(linkInput.partial({ span_id: true })), z.array(linkInput)]).default({}),
  }),
});
