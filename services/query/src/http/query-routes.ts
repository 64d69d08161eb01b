// POST /spans/query and POST /traces/query: the request's filter (or a saved query's) run by
// packages/span-read search/filter-search.ts, one page at a time.
import type { Request } from 'express';
import { savedQueryRefs, spanQueryBody } from '@llm/contracts';
import { RequestValidationError, issuesOf, type Handlers, type Guards } from '@llm/http';
import { toOtelTracingTree } from '@llm/span-model';
import { findSavedQueryRevision, type Queryable } from '@llm/account-model';
import { resolveSavedQuery } from '../domain/resolve-saved-query.ts';
import { flatInputs } from './flat-inputs.ts';
import { canonicalTraces } from '../domain/trace-view.ts';
import { compileSearch, spanPage, tracePage, type CompiledSearch, type SearchDeps } from '@llm/span-read';
import { readEvents, type EventRecorder } from '../adapters/event-recorder.ts';

/** The filtering and windowing a search runs: the request's own, or, with a saved-query ref, the
 * stored revision's (reference §5.5; the request keeps only `limit` and `next`). */
export async function searchInput(req: Request, focus: 'span' | 'trace', accounts: Queryable): Promise<{ filtering: unknown; windowing: unknown }> {
  const raw: unknown = req.body ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new RequestValidationError([{ loc: ['body'], msg: 'body must be an object', type: 'type_error' }]);
  const b = spanQueryBody.safeParse(raw);
  if (!b.success) throw new RequestValidationError(issuesOf(b.error, 'body'));
  const refs = savedQueryRefs.safeParse(b.data);
  if (!refs.success) throw new RequestValidationError(refs.error.issues.map((i) => ({ loc: ['body', ...i.path.map(String)], msg: i.message, type: i.code })));
  const saved = await resolveSavedQuery(refs.data, b.data.windowing, focus, (lookup) => findSavedQueryRevision(accounts, req.scope.projectId, lookup));
  return saved ? { filtering: saved.filtering, windowing: saved.windowing } : { filtering: b.data.filtering, windowing: b.data.windowing };
}

async function compile(req: Request, focus: 'span' | 'trace', accounts: Queryable): Promise<CompiledSearch> {
  const i = await searchInput(req, focus, accounts);
  return compileSearch(req.scope.projectId, i.filtering, i.windowing, focus);
}

export interface QueryRouteDeps extends SearchDeps {
  /** The accounts projection (Postgres): saved-query references resolve there. */
  accounts: Queryable;
  /** Where read events go (traces.queried when a query found something); none = not recorded. */
  recorder?: EventRecorder;
}

export function queryRoutes(d: QueryRouteDeps, guards: Guards<'auth'>): Handlers {
  const events = readEvents(d.recorder);
  return {
    'spans.query': [...guards.auth, async (req, res) => {
      const c = await compile(req, 'span', d.accounts);
      const { spans, next } = await spanPage(d, c, req.scope.projectId);
      events.queried(req, spans.length, spans.map((s) => s.trace_id));
      const out: Record<string, unknown> = { count: spans.length, spans };
      if (next) out.windowing = { limit: c.w.limit, order: c.w.order, next };
      res.json(out);
    }],
    'tracing.spans.query': [...guards.auth, async (req, res) => {
      const i = flatInputs(req);
      const windowing = Object.fromEntries(Object.entries({ oldest: i.oldest, newest: i.newest, limit: i.limit, rate: i.rate }).filter(([, v]) => v !== undefined));
      const focus = i.focus ?? 'trace';
      const c = compileSearch(req.scope.projectId, i.filter, windowing, focus);
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
    'traces.query': [...guards.auth, async (req, res) => {
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
