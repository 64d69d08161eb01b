// POST /spans/export and POST /traces/export: the whole result of a span or trace query (the same
// filtering, windowing and saved-query refs as /spans/query and /traces/query, scoped to the
// caller's project the same way) streamed as JSON Lines, CSV or Parquet.
//
// Memory stays bounded by one page whatever the result's size: a span export reads consecutive key
// ranges of the span table (export-reader.ts: at most EXPORT_PAGE_SPANS spans and EXPORT_PAGE_BYTES of
// stored rows each), a trace export the trace query's own cursor pages (packages/span-read search/filter-search.ts, at most
// EXPORT_PAGE_TRACES traces); each page is encoded and written while the next one is read, and the
// one after that only once the socket took it (`write` → `drain`), so a slow reader slows the export
// instead of making the server buffer it. A reader that goes away ends it.
//
// Errors before the first byte are the query routes' answers (422 bad body or window, 400 bad
// filter, 404 unknown saved query, 409 focus conflict, 503); after it, the only honest signal left
// is to abort the response, so the client sees a truncated transfer, never a short file that looks
// complete.
import { once } from 'node:events';
import type { Request, RequestHandler, Response } from 'express';
import { EXPORT_MEDIA_TYPES, spanExportBody, type ExportFormat } from '@llm/contracts';
import { RequestValidationError, issuesOf, type Handlers, type Guards } from '@llm/http';
import type { Queryable } from '@llm/account-model';
import { counter } from '@llm/metrics';
import type { Span } from '@llm/span-model';
import { READ_EVENT_MAX_IDS, readEvents, type EventRecorder, type ReadEvents, type ScopedRequest } from '../adapters/event-recorder.ts';
import type { ExportEstimator } from '../adapters/export-estimate.ts';
import type { ExportCursor, ExportReader } from '../adapters/export-reader.ts';
import { exportEncoder } from '../domain/export-encoders.ts';
import { spanView } from '@llm/span-read';
import { canonicalTraces } from '../domain/trace-view.ts';
import { compileSearch, spanPage, tracePage, type CompiledSearch, type SearchDeps, type SearchFocus } from '@llm/span-read';
import { searchInput } from './query-routes.ts';

/** Spans per page of a span export. */
export const EXPORT_PAGE_SPANS = 2000;
/** Estimated stored bytes per page of a span export at most (a page holds at least one span). */
export const EXPORT_PAGE_BYTES = 4 * 1024 * 1024;
/** Traces per page of a trace export. */
export const EXPORT_PAGE_TRACES = 200;

const exportedRows = counter('query_export_records_total', 'Records (spans, or traces of trace exports) written by POST /spans/export and /traces/export.');
const abortedExports = counter('query_exports_aborted_total', 'Exports that ended before their last record: the reader went away, or a page failed after the first byte.');

export interface ExportRouteDeps extends SearchDeps {
  accounts: Queryable;
  exporter: ExportReader;
  estimator: ExportEstimator;
  recorder?: EventRecorder;
}

interface Page {
  spans: Span[];
  records: unknown[];
  traceIds: string[];
}

type SearchInput = { filtering: unknown; windowing: unknown };

const FILE_EXTENSIONS: Record<ExportFormat, string> = { jsonl: 'jsonl', csv: 'csv', parquet: 'parquet' };

function exportFormat(req: Request): ExportFormat {
  const raw: unknown = req.body ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new RequestValidationError([{ loc: ['body'], msg: 'body must be an object', type: 'type_error' }]);
  const b = spanExportBody.safeParse(raw);
  if (!b.success) throw new RequestValidationError(issuesOf(b.error, 'body'));
  return b.data.format ?? 'jsonl';
}

/** The request's windowing with the cursor of the page to read (the first page keeps its own `next`). */
function windowAt(windowing: unknown, next: string | undefined): unknown {
  if (next === undefined) return windowing;
  const w = windowing && typeof windowing === 'object' && !Array.isArray(windowing) ? windowing : {};
  return { ...w, next };
}

/** Writes, and resolves once the socket can take more (or the reader is gone: `false`). */
async function send(res: Response, chunk: Uint8Array): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return false;
  if (chunk.length === 0 || res.write(chunk)) return true;
  // Whichever comes first; the other listener is removed (one pair per page would pile up otherwise).
  const ac = new AbortController();
  try {
    await Promise.race([once(res, 'drain', { signal: ac.signal }), once(res, 'close', { signal: ac.signal })]);
  } finally {
    ac.abort();
  }
  return !res.destroyed;
}

/**
 * Read events of one export: a `traces.queried` per READ_EVENT_MAX_IDS distinct traces sent, the rest
 * at the end, each counting the records it covers. `add` takes each record's trace id (a span's, or
 * a trace's own), in the order they were sent.
 */
export function exportEvents(events: ReadEvents, req: ScopedRequest, what: { format: ExportFormat; focus: SearchFocus }) {
  let ids = new Set<string>();
  let count = 0;
  const emit = (): void => {
    events.exported(req, count, [...ids], what);
    ids = new Set();
    count = 0;
  };
  return {
    add(traceIds: readonly string[]): void {
      for (const id of traceIds) {
        if (ids.size >= READ_EVENT_MAX_IDS && !ids.has(id)) emit();
        ids.add(id);
        count++;
      }
    },
    end(): void { if (count > 0) emit(); },
  };
}

export function exportRoutes(d: ExportRouteDeps, guards: Guards<'auth'>): Handlers {
  const events = readEvents(d.recorder);

  /** Span pages: key ranges of the span table; a list of trace ids (the filter's shortcut) is one read. */
  async function* spanPages(projectId: string, c: CompiledSearch): AsyncGenerator<Page> {
    if (c.traceIds) {
      const { spans } = await spanPage(d, c, projectId);
      yield { spans, records: spans, traceIds: spans.map((s) => s.trace_id) };
      return;
    }
    let after: ExportCursor | undefined;
    do {
      const p = await d.exporter.page({ projectId, where: c.where, params: c.params, order: c.w.order, orderBy: c.w.orderBy }, after);
      const spans = p.rows.map(spanView);
      yield { spans, records: spans, traceIds: spans.map((s) => s.trace_id) };
      after = p.next;
    } while (after);
  }

  /** Trace pages: the trace query's cursor pages, each trace whole. */
  async function* tracePages(projectId: string, input: SearchInput): AsyncGenerator<Page> {
    let next: string | undefined;
    do {
      const c = compileSearch(projectId, input.filtering, windowAt(input.windowing, next), 'trace');
      // The request's `limit` was validated as on the query routes; an export's pages are its own size.
      const p = await tracePage(d, { ...c, w: { ...c.w, limit: EXPORT_PAGE_TRACES } }, projectId);
      const trees = new Map(canonicalTraces(p.spans).map((t) => [t.trace_id, t]));
      yield { spans: p.spans, records: p.order.flatMap((id) => trees.get(id) ?? []), traceIds: p.order };
      next = p.next;
    } while (next);
  }

  const handler = (focus: SearchFocus): RequestHandler => async (req, res) => {
    const format = exportFormat(req);
    const projectId = req.scope.projectId;
    const input = await searchInput(req, focus, d.accounts);
    const first = compileSearch(projectId, input.filtering, input.windowing, focus);
    const pages = focus === 'span' ? spanPages(projectId, first) : tracePages(projectId, input);
    // The first page is read before anything is sent: its errors are ordinary answers.
    let page = await pages.next();
    const estimate = first.traceIds ? undefined : await d.estimator.estimate(projectId, first, focus);

    const encoder = exportEncoder(format);
    const recorded = exportEvents(events, req, { format, focus });
    res.status(200);
    res.setHeader('Content-Type', EXPORT_MEDIA_TYPES[format]);
    res.setHeader('Content-Disposition', `attachment; filename="${focus}s-export.${FILE_EXTENSIONS[format]}"`);
    res.setHeader('Cache-Control', 'no-store');
    if (estimate !== undefined) res.setHeader('X-Export-Estimated-Rows', String(estimate));
    let complete = false;
    try {
      if (!await send(res, encoder.start())) return;
      while (!page.done) {
        // The next page is read while this one is written: at most two pages are held, and the
        // engine works while the socket drains.
        const ahead = pages.next();
        ahead.catch(() => undefined); // awaited below, or dropped with the export
        if (!await send(res, encoder.page(page.value))) return;
        recorded.add(page.value.traceIds);
        exportedRows(page.value.records.length);
        page = await ahead;
      }
      if (!await send(res, encoder.end())) return;
      complete = true;
      res.end();
    } catch (err) {
      req.log.error({ err, focus, format }, 'export failed after its first byte: response aborted');
      res.destroy();
    } finally {
      recorded.end();
      if (!complete) abortedExports();
    }
  };

  return {
    'spans.export': [...guards.auth, handler('span')],
    'traces.export': [...guards.auth, handler('trace')],
  };
}
