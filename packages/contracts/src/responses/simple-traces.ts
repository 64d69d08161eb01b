// zod schemas of the simple-trace answers (reference tracing §3.3): one root span read back as
// `{trace_id, span_id, origin, kind, channel, data, references, links, …}`.
import { z } from 'zod';
import { spanIdView, traceIdView } from './span-view.ts';
import { spanLink } from './tracing-writes.ts';

const count = z.number().int().min(0);
const openJson = z.record(z.string(), z.unknown());
const linkOf = z.object({ trace_id: z.string(), span_id: z.string().optional(), attributes: openJson.nullish() });

export const simpleTraceView = z.object({
  trace_id: traceIdView,
  span_id: spanIdView,
  origin: z.enum(['human', 'auto', 'custom']),
  kind: z.enum(['adhoc', 'eval', 'play']),
  channel: z.enum(['sdk', 'api', 'web', 'otlp']),
  data: openJson,
  /** By entity name (application, variant, revision, evaluator, testset, …). */
  references: z.record(z.string(), z.record(z.string(), z.unknown())),
  /** Keyed links as stored; a create answer echoes the request's form, which may be a list. */
  links: z.union([z.record(z.string(), linkOf), z.array(linkOf)]),
  tags: openJson.optional(),
  meta: openJson.optional(),
  /** Reads only: the creation time (the root span's start). */
  created_at: z.string().optional(),
});

/** POST /simple/traces (202), GET and PATCH /simple/traces/{id}: `{count: 1, trace}` or `{count: 0}`. */
export const simpleTraceResponse = z.object({ count, trace: simpleTraceView.optional() });
/** POST /simple/traces/query. */
export const simpleTracesResponse = z.object({ count, traces: z.array(simpleTraceView) });
/** DELETE /simple/traces/{id}: the removed trace's link, or `{count: 0}` when there was none. */
export const simpleTraceLinkResponse = z.object({ count, link: spanLink.optional() });

/** POST /annotations, GET and PATCH /annotations/{trace_id} (reference evaluations §2.1): an annotation reads as a simple trace. */
export const annotationResponse = z.object({ count, annotation: simpleTraceView.optional() });
/** POST /annotations/query. */
export const annotationsResponse = z.object({ count, annotations: z.array(simpleTraceView) });
/** DELETE /annotations/{trace_id}. */
export const annotationLinkResponse = z.object({ count, annotation_link: spanLink.optional() });
