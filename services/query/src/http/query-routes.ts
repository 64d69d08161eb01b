// POST /spans/query and POST /traces/query: the filtering language compiled to parameterized SQL
// (packages/span-filter), cursor pagination that walks every item exactly once.
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { compileFilter, compileWindowing, spanCursor, traceCursor, type CompiledWindowing, type SqlParams } from '@llm/span-filter';
import { invalid } from '@llm/errors';
import { jsonValue, openObject, savedQueryRefs } from '@llm/contracts';
import { RequestValidationError, issuesOf, type Handlers } from '@llm/http';
import { toOtelTracingTree } from '@llm/span-model';
import type { SpanReader } from '../adapters/span-reader.ts';
import type { SpanSearcher } from '../adapters/span-search.ts';
import { findSavedQueryRevision, type Queryable } from '@llm/accounts-read';
import { resolveSavedQuery } from '../domain/resolve-saved-query.ts';
import { spanView } from '../domain/span-view.ts';
import { flatInputs } from './flat-inputs.ts';
import { canonicalTraces } from '../domain/trace-view.ts';
import { traceIdShortcut } from '../domain/trace-id-shortcut.ts';
import { readEvents, type EventRecorder } from '../adapters/event-recorder.ts';

const body = openObject({ filtering: jsonValue.optional(), windowing: jsonValue.optional() });
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

async function compile(req: Request, focus: 'span' | 'trace', accounts: Queryable): Promise<Compiled> {
  const raw: unknown = req.body ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new RequestValidationError([{ loc: ['body'], msg: 'body must be an object', type: 'type_error' }]);
  const b = body.safeParse(raw);
  if (!b.success) throw new RequestValidationError(issuesOf(b.error, 'body'));
  // With a saved-query ref, the stored revision's filtering and windowing replace the request's
  // (reference §5.5; the request keeps only `limit` and `next`).
  const refs = savedQueryRefs.safeParse(b.data);
  if (!refs.success) throw new RequestValidationError(refs.error.issues.map((i) => ({ loc: ['body', ...i.path.map(String)], msg: i.message, type: i.code })));
  const saved = await resolveSavedQuery(refs.data, b.data.windowing, focus, (lookup) => findSavedQueryRevision(accounts, req.scope.projectId, lookup));
  return saved ? compileParts(req, saved.filtering, saved.windowing, focus) : compileParts(req, b.data.filtering, b.data.windowing, focus);
}

export interface QueryRouteDeps {
  reader: SpanReader;
  searcher: SpanSearcher;
  /** The accounts projection (Postgres): saved-query references resolve there. */
  accounts: Queryable;
  /** Where read events go (traces.queried when a query found something); none = not recorded. */
  recorder?: EventRecorder;
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
  const full = keys.slice(0, c.w.limit);
  // A page whose whole traces would exceed the result bounds ends after the last trace that fits.
  const { rows, kept } = await d.reader.traceRows(projectId, full.map((k) => k.trace_id));
  const page = full.slice(0, kept);
  const last = page[page.length - 1];
  const more = kept < full.length || keys.length > c.w.limit;
  return { order: page.map((k) => k.trace_id), spans: rows.map(spanView), next: more && last ? traceCursor({ key: last.trace_key, trace_id: last.trace_id }) : undefined };
}

async function spanPage(d: QueryRouteDeps, c: Compiled, projectId: string) {
  if (c.traceIds) return { spans: (await d.reader.byIds(projectId, c.traceIds, [])).map(spanView), next: undefined };
  const page = await d.searcher.spans({ where: c.where, orderBy: c.w.orderBy, order: c.w.order, limit: c.w.limit, params: c.params });
  const last = page.rows[page.rows.length - 1];
  return { spans: page.rows.map(spanView), next: page.more && last ? spanCursor(last) : undefined };
}

export function queryRoutes(d: QueryRouteDeps, auth: RequestHandler): Handlers {
  const events = readEvents(d.recorder);
  return {
    'spans.query': [auth, async (req, res) => {
      const c = await compile(req, 'span', d.accounts);
      const { spans, next } = await spanPage(d, c, req.scope.projectId);
      events.queried(req, spans.length, spans.map((s) => s.trace_id));
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
      events.queried(req, out.count as number, p.spans.map((s) => s.trace_id));
      if (p.next) out.windowing = { limit: c.w.limit, next: p.next };
      res.json(out);
    }],
    'traces.query': [auth, async (req, res) => {
      const c = await compile(req, 'trace', d.accounts);
      const p = await tracePage(d, c, req.scope.projectId);
      const trees = new Map(canonicalTraces(p.spans).map((t) => [t.trace_id, t]));
      const traces = p.order.map((id) => trees.get(id)).filter((t) => t !== undefined);
      events.queried(req, traces.length, traces.map((t) => t.trace_id));
      const out: Record<string, unknown> = { count: traces.length, traces };
      if (p.next) out.windowing = { limit: c.w.limit, order: c.w.order, next: p.next };
      res.json(out);
    }],
  };
}
