// The read routes of annotations (reference evaluations §2.1, §3.6): an annotation is the root span
// of a trace of type "annotation", read back like a simple trace — by trace id, or by the trace
// query over the span store (origin, kind, channel, tags, meta, references, links, and the
// annotations' own ids in `annotation_links`).
import { annotationsQuery } from '@llm/contracts';
import { validate, type Handlers, type Guards } from '@llm/http';
import { parseTraceId } from '@llm/span-model';
import { type SpanReader, readSimpleTrace, spanView, simpleTraceFiltering, simpleTraceOf } from '@llm/span-read';
import { compileSearch, type SpanSearcher } from '@llm/span-read';

export function annotationRoutes(deps: { reader: SpanReader; searcher: SpanSearcher }, guards: Guards<'view'>): Handlers {
  const { reader, searcher } = deps;
  return {
    'annotations.fetch': [...guards.view, async (req, res) => {
      const id = parseTraceId(String(req.params.trace_id));
      if (!id.ok) { res.json({ count: 0 }); return; }
      const annotation = await readSimpleTrace(reader, req.scope.projectId, id.value);
      res.json(annotation ? { count: 1, annotation } : { count: 0 });
    }],
    'annotations.query': [...guards.view, async (req, res) => {
      const body = validate(annotationsQuery, req.body ?? {}) ?? {};
      const filtering = simpleTraceFiltering({ trace: body.annotation, links: body.annotation_links }, ['annotation']);
      const c = compileSearch(req.scope.projectId, filtering, body.windowing, 'span');
      const page = await searcher.spans({ projectId: req.scope.projectId, where: c.where, orderBy: c.w.orderBy, order: c.w.order, limit: c.w.limit, params: c.params });
      const annotations = page.rows.map(spanView).map(simpleTraceOf).filter((t) => t !== undefined);
      res.json({ count: annotations.length, annotations });
    }],
  };
}
