// POST /spans/query and POST /traces/query: the filtering language compiled to parameterized SQL
// (packages/span-filter), cursor pagination that walks every item exactly once.
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { compileFilter, compileWindowing, spanCursor, traceCursor, type CompiledWindowing, type SqlParams } from '@llm/span-filter';
import { invalid } from '@llm/errors';
import { RequestValidationError, type Handlers } from '@llm/http';
import { buildTraceTree, childrenByName } from '@llm/span-model';
import type { SpanReader } from '../adapters/span-reader.ts';
import { spanView } from '../domain/span-view.ts';

const body = z.object({ filtering: z.unknown().optional(), windowing: z.unknown().optional() }).passthrough();
const PROJECT = 'project_id_param';

const values = (p: SqlParams): Record<string, unknown> => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.value]));

function compile(req: Request, focus: 'span' | 'trace'): { where: string; params: Record<string, unknown>; w: CompiledWindowing } {
  const b = body.safeParse(req.body ?? {});
  if (!b.success) throw new RequestValidationError([{ loc: ['body'], msg: 'body must be an object', type: 'type_error' }]);
  if (b.data.query_ref || b.data.query_variant_ref || b.data.query_revision_ref) {
    throw invalid('not_supported', 'Saved query references are not supported yet.');
  }
  const f = compileFilter(b.data.filtering, { projectParam: PROJECT });
  if (!f.ok) throw invalid('invalid_filtering', f.errors.map((e) => e.message).join('; '));
  const w = compileWindowing(b.data.windowing, focus);
  if (!w.ok) throw new RequestValidationError(w.errors.map((e) => ({ loc: ['body', ...e.path], msg: e.message, type: 'value_error' })));
  return { where: `${f.sql} AND ${w.where}`, params: { ...values(f.params), ...values(w.params), [PROJECT]: req.scope.projectId }, w };
}

export function queryRoutes(reader: SpanReader, auth: RequestHandler): Handlers {
  return {
    'spans.query': [auth, async (req, res) => {
      const { where, params, w } = compile(req, 'span');
      const rows = await reader.search({ where, orderBy: w.orderBy, limit: w.limit, params });
      const page = rows.slice(0, w.limit);
      const out: Record<string, unknown> = { count: page.length, spans: page.map(spanView) };
      const last = page[page.length - 1];
      if (rows.length > w.limit && last) out.windowing = { limit: w.limit, order: w.order, next: spanCursor(last) };
      res.json(out);
    }],
    'traces.query': [auth, async (req, res) => {
      const { where, params, w } = compile(req, 'trace');
      const keys = await reader.searchTraces({ where, having: w.having, orderBy: w.orderBy, traceKey: w.traceKey, limit: w.limit, params });
      const page = keys.slice(0, w.limit);
      const spans = page.length ? (await reader.byIds(req.scope.projectId, page.map((k) => k.trace_id), [])).map(spanView) : [];
      const trees = new Map(buildTraceTree(spans).map((t) => [t.trace_id, { trace_id: t.trace_id, spans: childrenByName([...t.roots, ...t.orphans]) }]));
      const traces = page.map((k) => trees.get(k.trace_id)).filter((t) => t !== undefined);
      const out: Record<string, unknown> = { count: traces.length, traces };
      const last = page[page.length - 1];
      if (keys.length > w.limit && last) out.windowing = { limit: w.limit, order: w.order, next: traceCursor({ key: last.trace_key, trace_id: last.trace_id }) };
      res.json(out);
    }],
  };
}
