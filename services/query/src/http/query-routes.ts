// POST /spans/query and POST /traces/query: the filtering language compiled to parameterized SQL
// (packages/span-filter), cursor pagination that walks every item exactly once.
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { compileFilter, compileWindowing, spanCursor, traceCursor, type CompiledWindowing, type SqlParams } from '@llm/span-filter';
import { invalid } from '@llm/errors';
import { RequestValidationError, type Handlers } from '@llm/http';
import { toOtelTracingTree } from '@llm/span-model';
import type { SpanReader } from '../adapters/span-reader.ts';
import type { SpanSearcher } from '../adapters/span-search.ts';
import { spanView } from '../domain/span-view.ts';
import { canonicalTraces } from '../domain/trace-view.ts';
import { traceIdShortcut } from '../domain/trace-id-shortcut.ts';

const body = z.object({ filtering: z.unknown().optional(), windowing: z.unknown().optional() }).passthrough();
const PROJECT = 'project_id_param';

const values = (p: SqlParams): Record<string, unknown> => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.value]));

interface Compiled {
  where: string;
  params: Record<string, unknown>;
  w: CompiledWindowing;
  /** Set when the filtering is the trace-id shortcut: read these traces whole, ignore the window. */
  traceIds?: string[];
}

function compileParts(req: Request, filtering: unknown, windowing: unknown, focus: 'span' | 'trace'): Compiled {
  const f = compileFilter(filtering, { projectParam: PROJECT });
  if (!f.ok) throw invalid('invalid_filtering', f.errors.map((e) => e.message).join('; '));
  const w = compileWindowing(windowing, focus);
  if (!w.ok) throw new RequestValidationError(w.errors.map((e) => ({ loc: ['body', ...e.path], msg: e.message, type: 'value_error' })));
  const traceIds = traceIdShortcut(filtering);
  return { where: `${f.sql} AND ${w.where}`, params: { ...values(f.params), ...values(w.params), [PROJECT]: req.scope.projectId }, w, ...(traceIds ? { traceIds } : {}) };
}

function compile(req: Request, focus: 'span' | 'trace'): Compiled {
  const b = body.safeParse(req.body ?? {});
  if (!b.success) throw new RequestValidationError([{ loc: ['body'], msg: 'body must be an object', type: 'type_error' }]);
  if (b.data.query_ref || b.data.query_variant_ref || b.data.query_revision_ref) {
    throw invalid('not_supported', 'Saved query references are not supported yet.');
  }
  return compileParts(req, b.data.filtering, b.data.windowing, focus);
}

// The deprecated flat style: query parameters and/or a flat body with the same names; the body wins
// per name. An unexpected key is a 422 (the reference silently ignored the whole body).
const flat = z.strictObject({
  focus: z.enum(['trace', 'span']).optional(),
  format: z.enum(['agenta', 'opentelemetry']).optional(),
  oldest: z.union([z.string(), z.number()]).optional(),
  newest: z.union([z.string(), z.number()]).optional(),
  limit: z.coerce.number().int().optional(),
  rate: z.coerce.number().optional(),
  interval: z.coerce.number().optional(),
  filter: z.unknown().optional(),
});

function flatInputs(req: Request): z.infer<typeof flat> {
  const merged = { ...(req.query as Record<string, unknown>), ...((req.body && typeof req.body === 'object') ? req.body as Record<string, unknown> : {}) };
  const r = flat.safeParse(merged);
  if (!r.success) throw new RequestValidationError(r.error.issues.map((i) => ({ loc: ['body', ...i.path.map(String)], msg: i.message, type: i.code })));
  return r.data;
}

export interface QueryRouteDeps {
  reader: SpanReader;
  searcher: SpanSearcher;
}

/** Whole traces (all their spans) of which some span matches, in window order. */
async function tracePage(d: QueryRouteDeps, c: Compiled, projectId: string) {
  if (c.traceIds) {
    const spans = (await d.reader.byIds(projectId, c.traceIds, [])).map(spanView);
    return { order: [...new Set(spans.map((s) => s.trace_id))], spans, next: undefined };
  }
  const keys = await d.searcher.traces({
    where: c.where, having: c.w.having, orderBy: c.w.orderBy, order: c.w.order, traceKey: c.w.traceKey, limit: c.w.limit,
    params: c.params, projectId, ...(c.w.cursor ? { cursor: c.w.cursor } : {}),
  });
  const page = keys.slice(0, c.w.limit);
  const spans = page.length ? (await d.reader.byIds(projectId, page.map((k) => k.trace_id), [])).map(spanView) : [];
  const last = page[page.length - 1];
  return { order: page.map((k) => k.trace_id), spans, next: keys.length > c.w.limit && last ? traceCursor({ key: last.trace_key, trace_id: last.trace_id }) : undefined };
}

async function spanPage(d: QueryRouteDeps, c: Compiled, projectId: string) {
  if (c.traceIds) return { spans: (await d.reader.byIds(projectId, c.traceIds, [])).map(spanView), next: undefined };
  const rows = await d.searcher.spans({ where: c.where, orderBy: c.w.orderBy, order: c.w.order, limit: c.w.limit, params: c.params });
  const page = rows.slice(0, c.w.limit);
  const last = page[page.length - 1];
  return { spans: page.map(spanView), next: rows.length > c.w.limit && last ? spanCursor(last) : undefined };
}

export function queryRoutes(d: QueryRouteDeps, auth: RequestHandler): Handlers {
  return {
    'spans.query': [auth, async (req, res) => {
      const c = compile(req, 'span');
      const { spans, next } = await spanPage(d, c, req.scope.projectId);
      const out: Record<string, unknown> = { count: spans.length, spans };
      if (next) out.windowing = { limit: c.w.limit, order: c.w.order, next };
      res.json(out);
    }],
    'tracing.spans.query': [auth, async (req, res) => {
      const i = flatInputs(req);
      const windowing = Object.fromEntries(Object.entries({ oldest: i.oldest, newest: i.newest, limit: i.limit, rate: i.rate }).filter(([, v]) => v !== undefined));
      const focus = i.focus ?? 'trace';
      const c = compileParts(req, i.filter, windowing, focus);
      const p = focus === 'span' ? await spanPage(d, c, req.scope.projectId) : await tracePage(d, c, req.scope.projectId);
      let out: Record<string, unknown>;
      if (focus === 'span' || i.format === 'opentelemetry') out = { count: p.spans.length, spans: p.spans };
      else {
        const t = toOtelTracingTree(p.spans);
        out = { count: Object.keys(t.traces).length, traces: t.traces };
      }
      if (p.next) out.windowing = { limit: c.w.limit, next: p.next };
      res.json(out);
    }],
    'traces.query': [auth, async (req, res) => {
      const c = compile(req, 'trace');
      const p = await tracePage(d, c, req.scope.projectId);
      const trees = new Map(canonicalTraces(p.spans).map((t) => [t.trace_id, t]));
      const traces = p.order.map((id) => trees.get(id)).filter((t) => t !== undefined);
      const out: Record<string, unknown> = { count: traces.length, traces };
      if (p.next) out.windowing = { limit: c.w.limit, order: c.w.order, next: p.next };
      res.json(out);
    }],
  };
}
