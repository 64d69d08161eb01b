// Read side of simple traces (reference compat §5.2, tracing §3.3): GET /simple/traces/{trace_id}
// and POST /simple/traces/query, over the same span store as every other read.
import { simpleTraceQuery } from '@llm/contracts';
import { validate, type Handlers, type Guards } from '@llm/http';
import { parseTraceId } from '@llm/span-model';
import { type SpanReader, readSimpleTrace, spanView, simpleTraceFiltering, simpleTraceOf } from '@llm/span-read';
import { compileSearch, type SpanSearcher } from '@llm/span-read';

export function simpleTraceRoutes(deps: { reader: SpanReader; searcher: SpanSearcher }, guards: Guards<'view'>): Handlers {
  const { reader, searcher } = deps;
  return {
    'simple.traces.fetch': [...guards.view, async (req, res) => {
      // Unknown, malformed or not a simple trace (no data): the reference's empty answer.
      const id = parseTraceId(String(req.params.trace_id));
      if (!id.ok) { res.json({ count: 0 }); return; }
      const trace = await readSimpleTrace(reader, req.scope.projectId, id.value);
      res.json(trace ? { count: 1, trace } : { count: 0 });
    }],
    'simple.traces.query': [...guards.view, async (req, res) => {
      const body = validate(simpleTraceQuery, req.body ?? {}) ?? {};
      const c = compileSearch(req.scope.projectId, simpleTraceFiltering(body), body.windowing, 'span');
      const page = await searcher.spans({ projectId: req.scope.projectId, where: c.where, orderBy: c.w.orderBy, order: c.w.order, limit: c.w.limit, params: c.params });
      const traces = page.rows.map(spanView).map(simpleTraceOf).filter((t) => t !== undefined);
      res.json({ count: traces.length, traces });
    }],
  };
}
