// Running a span/trace filter (the filtering language compiled to parameterized SQL by
// packages/span-filter) one page at a time, with cursor pagination that walks every item exactly
// once and pages bounded by the reader's result limit. Shared by POST /spans/query, /traces/query,
// /tracing/spans/query, the trace execution of POST /queries/revisions/retrieve and the evaluation
// worker's runs over saved queries.
import { compileFilter, compileWindowing, spanCursor, traceCursor, type CompiledWindowing, type SqlParams } from '@llm/span-filter';
import { invalid } from '@llm/errors';
import { RequestValidationError } from '@llm/http';
import { SpanReader } from '../span-reader.ts';
import type { ReadModel } from '../read-model.ts';
import { spanView } from '../span-view.ts';
import { SpanSearcher } from './span-search.ts';
import { traceIdShortcut } from './trace-id-shortcut.ts';

const PROJECT = 'project_id_param';

const values = (p: SqlParams): Record<string, unknown> => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.value]));

export type SearchFocus = 'span' | 'trace';

export interface CompiledSearch {
  where: string;
  params: Record<string, unknown>;
  w: CompiledWindowing;
  /** Set when the filtering is the trace-id shortcut: read these traces whole, ignore the window. */
  traceIds?: string[];
}

export interface SearchDeps {
  reader: SpanReader;
  searcher: SpanSearcher;
}

/** A bad filter is a 400, a bad window a 422 naming the body path (as for a request's own). */
export function compileSearch(projectId: string, filtering: unknown, windowing: unknown, focus: SearchFocus): CompiledSearch {
  const f = compileFilter(filtering, { projectParam: PROJECT });
  if (!f.ok) throw invalid('invalid_filtering', f.errors.map((e) => e.message).join('; '));
  const w = compileWindowing(windowing, focus);
  if (!w.ok) throw new RequestValidationError(w.errors.map((e) => ({ loc: ['body', ...e.path], msg: e.message, type: 'value_error' })));
  const traceIds = traceIdShortcut(filtering);
  return { where: `${f.sql} AND ${w.where}`, params: { ...values(f.params), ...values(w.params), [PROJECT]: projectId }, w, ...(traceIds ? { traceIds } : {}) };
}

/** Whole traces (all their spans) of which some span matches, in window order. */
export async function tracePage(d: SearchDeps, c: CompiledSearch, projectId: string) {
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
  const located = full.every((k) => k.range) ? full.map((k) => k.range!) : undefined;
  const { rows, kept } = await d.reader.traceRows(projectId, full.map((k) => k.trace_id), located);
  const page = full.slice(0, kept);
  const last = page[page.length - 1];
  const more = kept < full.length || keys.length > c.w.limit;
  return { order: page.map((k) => k.trace_id), spans: rows.map(spanView), next: more && last ? traceCursor({ key: last.trace_key, trace_id: last.trace_id }) : undefined };
}

/** Matching spans in window order. */
export async function spanPage(d: SearchDeps, c: CompiledSearch, projectId: string) {
  if (c.traceIds) return { spans: (await d.reader.byIds(projectId, c.traceIds, [])).map(spanView), next: undefined };
  const page = await d.searcher.spans({ projectId, where: c.where, orderBy: c.w.orderBy, order: c.w.order, limit: c.w.limit, params: c.params });
  const last = page.rows[page.rows.length - 1];
  return { spans: page.rows.map(spanView), next: page.more && last ? spanCursor(last) : undefined };
}

/** The search dependencies over a ClickHouse span store (the evaluation worker's; the query service builds its own with retention horizons). */
export function searchDeps(rm: ReadModel, maxResultBytes?: number): SearchDeps {
  return { reader: new SpanReader(rm, maxResultBytes), searcher: new SpanSearcher(rm, maxResultBytes) };
}
