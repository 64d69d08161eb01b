// Reads by id: traces and spans, canonical and deprecated shapes.
import type { Request } from 'express';
import { AppError, invalid } from '@llm/errors';
import type { Handlers, Guards } from '@llm/http';
import { parseSpanId, parseTraceId, toOtelTracingTree, type Span } from '@llm/span-model';
import { type SpanReader, spanView } from '@llm/span-read';
import { canonicalTraces } from '../domain/trace-view.ts';
import { readEvents, type EventRecorder } from '../adapters/event-recorder.ts';

const RESERVED = new Set(['query', 'ingest']);

/** Repeatable `name` params merged with comma-separated `names` params, deduplicated. */
function idsParam(req: Request, single: string, csv: string): string[] {
  const out: string[] = [];
  const push = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(push);
    else if (typeof v === 'string') for (const p of v.split(',')) if (p.trim()) out.push(p.trim());
  };
  push(req.query[single]);
  push(req.query[csv]);
  return [...new Set(out)];
}

function parseAll(ids: string[], parse: typeof parseTraceId, message: string): string[] {
  return [...new Set(ids.map((id) => {
    const r = parse(id);
    if (!r.ok) throw invalid('invalid_id', message);
    return r.value;
  }))];
}

/** `recorder`: where read events go (traces.fetched when a read found something); none = not recorded. */
export function readRoutes(deps: { reader: SpanReader; recorder?: EventRecorder | undefined }, guards: Guards<'auth'>): Handlers {
  const { reader, recorder } = deps;
  const events = readEvents(recorder);
  const load = async (req: Request, traceIds: string[], spanIds: string[] = []): Promise<Span[]> =>
    (await reader.byIds(req.scope.projectId, traceIds, spanIds)).map(spanView);

  return {
    'traces.fetch': [
      (req, res, next) => {
        const seg = String(req.params.trace_id).toLowerCase();
        if (RESERVED.has(seg)) {
          // POST /traces/query and POST /traces/ingest are the routes at these paths.
          res.setHeader('Allow', 'POST');
          throw new AppError({ code: 'reserved', kind: 'method_not_allowed', message: `GET /traces/${seg} is not supported.` });
        }
        next();
      },
      ...guards.auth,
      async (req, res) => {
        const [id] = parseAll([String(req.params.trace_id)], parseTraceId, 'Invalid trace_id.');
        const [trace] = canonicalTraces(await load(req, [id!]));
        if (trace) events.fetched(req, [trace.trace_id], true);
        res.json(trace ? { count: 1, trace } : { count: 0 });
      },
    ],
    'traces.list': [...guards.auth, async (req, res) => {
      const raw = idsParam(req, 'trace_id', 'trace_ids');
      if (raw.length === 0) throw invalid('missing_ids', 'At least one trace_id query parameter is required.');
      const traces = canonicalTraces(await load(req, parseAll(raw, parseTraceId, 'Invalid trace_id.')));
      events.fetched(req, traces.map((t) => t.trace_id));
      res.json({ count: traces.length, traces });
    }],
    'spans.list': [...guards.auth, async (req, res) => {
      const t = idsParam(req, 'trace_id', 'trace_ids');
      const s = idsParam(req, 'span_id', 'span_ids');
      if (t.length === 0 && s.length === 0) throw invalid('missing_ids', 'At least one trace_id or span_id query parameter is required.');
      const spans = await load(req, parseAll(t, parseTraceId, 'Invalid trace_id.'), parseAll(s, parseSpanId, 'Invalid span_id.'));
      res.json({ count: spans.length, spans });
    }],
    'spans.fetch': [...guards.auth, async (req, res) => {
      const [t] = parseAll([String(req.params.trace_id)], parseTraceId, 'Invalid trace_id.');
      const [s] = parseAll([String(req.params.span_id)], parseSpanId, 'Invalid span_id.');
      const [span] = await load(req, [t!], [s!]);
      res.json(span ? { count: 1, span } : { count: 0 });
    }],
    'tracing.traces.fetch': [...guards.auth, async (req, res) => {
      const [id] = parseAll([String(req.params.trace_id)], parseTraceId, 'Invalid trace_id.');
      const spans = await load(req, [id!]);
      if (spans.length === 0) { res.json({ count: 0 }); return; }
      events.fetched(req, [id!], true);
      const tree = toOtelTracingTree(spans);
      res.json({ count: Object.keys(tree.traces).length, traces: tree.traces });
    }],
  };
}
