// Annotations (reference evaluations §2.1, §3.6): one-span traces written through the span pipeline,
// with the evaluator that judges them and links to the annotated spans. The body is the simple
// trace's (tracing.ts), under `annotation`.
import { z } from 'zod';
import { simpleTraceRequest } from './tracing.ts';
import { simpleTraceEdit } from './trace-queries.ts';
import { simpleTraceQuery } from './query-inputs.ts';

/** POST /annotations/. */
export const annotationCreate = z.object({ annotation: simpleTraceRequest.shape.trace });
export type AnnotationCreate = z.infer<typeof annotationCreate>;
/** PATCH /annotations/{trace_id}. */
export const annotationEdit = z.object({ annotation: simpleTraceEdit.shape.trace });
/** POST /annotations/query: `annotation_links` are the annotations' own trace (and span) ids. */
const traceQuery = simpleTraceQuery.unwrap().unwrap();
export const annotationsQuery = z.object({
  annotation: traceQuery.shape.trace,
  annotation_links: traceQuery.shape.links,
  windowing: traceQuery.shape.windowing,
}).nullish();
