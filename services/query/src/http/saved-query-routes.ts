// Saved-query reads (reference compat §1.3–§1.5) from the Postgres projection: fetches answer
// `{count:0|1, <key>?}` (an unknown id, or another project's, is `{"count":0}`), lists
// `{count, <keys>}`, retrieve resolves refs by §1.4 (the resolver shared with /traces/query).
import type { Request } from 'express';
import { z } from 'zod';
import { isUuid, listQueries, listQueryRevisions, listQueryVariants, listSimpleQueries, logQueryRevisions, readQuery, readQueryRevision, readQueryVariant, readSimpleQuery, resolveQueryRevision, type ListWindow } from '@llm/account-model';
import type { Pool } from '@llm/postgres';
import { can, FORBIDDEN_MESSAGE, projectRole } from '@llm/auth';
import {
  ints, queryNumber, savedQueryLeafMap, savedQueryLog, savedQueryRef, savedQueryRetrieve, savedQueryRevisionsQuery, savedQueryVariantsQuery,
  simpleSavedQueriesQuery, storedDateTime, texts, type SavedQueryListWindow,
} from '@llm/contracts';
import { AppError } from '@llm/errors';
import { RequestValidationError, issuesOf, type Handlers, type Guards } from '@llm/http';
import { findRevision, retrievalRun, type StoredRevision } from '../domain/resolve-saved-query.ts';
import { readEvents, type EventRecorder } from '../adapters/event-recorder.ts';
import { compileSearch, spanPage, tracePage, type SearchDeps } from '@llm/span-read';

function pathId(req: Request, name: string): string {
  const v = String(req.params[name] ?? '');
  if (!isUuid(v)) throw new RequestValidationError([{ loc: ['path', name], msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
  return v;
}
function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined) throw new RequestValidationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  const r = schema.safeParse(body);
  if (!r.success) throw new RequestValidationError(issuesOf(r.error, 'body'));
  return r.data;
}

const refList = z.array(savedQueryRef).nullish();
const windowOf = (w: SavedQueryListWindow | null | undefined): ListWindow | undefined => (w
  ? Object.fromEntries(Object.entries(w).filter(([, v]) => v !== null && v !== undefined)) as ListWindow
  : undefined);
/** A ref list filters by its ids, or (when it has none) by its slugs. */
function refFilter(refs: z.infer<typeof refList>): { ids?: string[]; slugs?: string[] } {
  if (!refs?.length) return {};
  const ids = refs.map((r) => r.id).filter((x): x is string => Boolean(x));
  const slugs = refs.map((r) => r.slug).filter((x): x is string => Boolean(x));
  return ids.length ? { ids } : slugs.length ? { slugs } : {};
}

/** One query-string value through its schema; a problem is a 422 at `query.<k>`. */
function param<S extends z.ZodType>(k: string, schema: S, v: unknown): z.infer<S> {
  const r = schema.safeParse(v);
  if (!r.success) throw new RequestValidationError(r.error.issues.map((i) => ({ loc: ['query', k], msg: i.message, type: i.code })));
  return r.data;
}
const listParam = z.array(texts.shortText);
const jsonText = texts.description.transform((v, ctx) => {
  try { return JSON.parse(v) as unknown; } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object', input: v });
    return z.NEVER;
  }
}).pipe(savedQueryLeafMap);

/** `/queries/query` takes its filters from the query string (the reference ignores the body). */
function queryStringFilter(req: Request): Parameters<typeof listQueries>[2] {
  const s = (k: string): string | undefined => (typeof req.query[k] === 'string' ? req.query[k] : undefined);
  const one = <S extends z.ZodType>(k: string, schema: S): z.infer<S> | undefined => (s(k) === undefined ? undefined : param(k, schema, s(k)));
  const list = (k: string): string[] => {
    const v = req.query[k];
    const all = (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string').flatMap((x) => x.split(','));
    return param(k, listParam, all);
  };
  const ids = [...list('query_ids'), ...(s('query_id') ? [one('query_id', texts.id)!] : [])];
  const slugs = [...list('query_slugs'), ...(s('query_slug') ? [one('query_slug', texts.shortText)!] : [])];
  const limit = one('limit', queryNumber(ints.int32));
  const order = s('order');
  const next = s('next') ? one('next', texts.id) : undefined;
  const newest = s('newest') ? one('newest', storedDateTime) : undefined;
  const oldest = s('oldest') ? one('oldest', storedDateTime) : undefined;
  const w: ListWindow = {
    ...(next ? { next } : {}), ...(newest ? { newest } : {}), ...(oldest ? { oldest } : {}),
    ...(limit !== undefined ? { limit } : {}), ...(order === 'ascending' || order === 'descending' ? { order } : {}),
  };
  const tags = one('tags', jsonText);
  const flags = one('flags', jsonText);
  return {
    ...(ids.length ? { ids } : {}), ...(slugs.length ? { slugs } : {}), ...(tags ? { tags } : {}), ...(flags ? { flags } : {}),
    includeArchived: s('include_archived') === 'true', ...(Object.keys(w).length ? { window: w } : {}),
  };
}

/** The span store a retrieve's trace execution reads, and where its read event goes. */
export interface RetrieveTraceDeps extends SearchDeps {
  recorder?: EventRecorder;
}

type Span = Awaited<ReturnType<typeof spanPage>>['spans'][number];

/**
 * Runs a revision's stored filter (§1.4 "Trace execution"): the trace ids in first-seen order and,
 * when asked, the traces as flat span maps keyed by span id; `next` when the page was cut (by the
 * window's limit or the result bound), so a client can page with `windowing.next`.
 */
async function executeRevision(d: RetrieveTraceDeps, projectId: string, rev: StoredRevision, requestWindowing: unknown) {
  const run = retrievalRun(rev, requestWindowing);
  if (!run) return undefined;
  const c = compileSearch(projectId, run.filtering, run.windowing, run.focus);
  let spans: Span[];
  let order: string[];
  let next: string | undefined;
  if (run.focus === 'span') {
    const p = await spanPage(d, c, projectId);
    spans = p.spans;
    order = [...new Set(spans.map((s) => s.trace_id))];
    next = p.next;
  } else {
    const p = await tracePage(d, c, projectId);
    spans = p.spans;
    order = p.order;
    next = p.next;
  }
  const byTrace = new Map<string, Record<string, Span>>(order.map((id) => [id, {}]));
  for (const s of spans) {
    const m = byTrace.get(s.trace_id);
    if (m) m[s.span_id] = s;
  }
  return { traceIds: order, traces: order.map((trace_id) => ({ trace_id, spans: byTrace.get(trace_id) ?? {} })), limit: c.w.limit, order: c.w.order, next };
}

export function savedQueryRoutes(deps: { pool: Pool; traces: RetrieveTraceDeps }, guards: Guards<'view'>): Handlers {
  const { pool, traces } = deps;
  const events = readEvents(traces.recorder);
  return {
    'queries.fetch': [...guards.view, async (req, res) => {
      const query = await readQuery(pool, req.scope.projectId, pathId(req, 'query_id'));
      res.json(query ? { count: 1, query } : { count: 0 });
    }],
    'queries.query': [...guards.view, async (req, res) => {
      const queries = await listQueries(pool, req.scope.projectId, queryStringFilter(req));
      res.json({ count: queries.length, queries });
    }],
    'queries.variants.fetch': [...guards.view, async (req, res) => {
      const v = await readQueryVariant(pool, req.scope.projectId, pathId(req, 'query_variant_id'));
      res.json(v ? { count: 1, query_variant: v } : { count: 0 });
    }],
    'queries.variants.query': [...guards.view, async (req, res) => {
      const b = parse(savedQueryVariantsQuery, req.body ?? {});
      const v = b.query_variant;
      const q = refFilter(b.query_refs);
      const own = refFilter(b.query_variant_refs);
      const slugs = [...(v?.slug ? [v.slug] : []), ...(v?.slugs ?? []), ...(own.slugs ?? [])];
      const variants = await listQueryVariants(pool, req.scope.projectId, {
        ...(q.ids ? { queryIds: q.ids } : {}), ...(q.slugs ? { querySlugs: q.slugs } : {}), ...(own.ids ? { ids: own.ids } : {}),
        ...(slugs.length ? { slugs } : {}), ...(v?.name ? { name: v.name } : {}), ...(v?.description ? { description: v.description } : {}),
        ...(v?.tags ? { tags: v.tags } : {}), ...(v?.flags ? { flags: v.flags } : {}), includeArchived: b.include_archived ?? false,
        ...(b.windowing ? { window: windowOf(b.windowing) } : {}),
      });
      res.json({ count: variants.length, query_variants: variants });
    }],
    'queries.revisions.fetch': [...guards.view, async (req, res) => {
      const r = await readQueryRevision(pool, req.scope.projectId, pathId(req, 'query_revision_id'));
      res.json(r ? { count: 1, query_revision: r } : { count: 0 });
    }],
    'queries.revisions.query': [...guards.view, async (req, res) => {
      const b = parse(savedQueryRevisionsQuery, req.body ?? {});
      const r = b.query_revision;
      const q = refFilter(b.query_refs);
      const v = refFilter(b.query_variant_refs);
      // In revision refs the id and slug lists are ANDed.
      const own = b.query_revision_refs ?? [];
      const ids = own.map((x) => x.id).filter((x): x is string => Boolean(x));
      const slugs = [...own.map((x) => x.slug).filter((x): x is string => Boolean(x)), ...(r?.slug ? [r.slug] : []), ...(r?.slugs ?? [])];
      const authors = [...(r?.author ? [r.author] : []), ...(r?.authors ?? [])];
      const revisions = await listQueryRevisions(pool, req.scope.projectId, {
        ...(q.ids ? { queryIds: q.ids } : {}), ...(q.slugs ? { querySlugs: q.slugs } : {}),
        ...(v.ids ? { variantIds: v.ids } : {}), ...(v.slugs ? { variantSlugs: v.slugs } : {}),
        ...(ids.length ? { ids } : {}), ...(slugs.length ? { slugs } : {}), ...(authors.length ? { authors } : {}),
        ...(r?.message ? { message: r.message } : {}), ...(r?.name ? { name: r.name } : {}), ...(r?.description ? { description: r.description } : {}),
        ...(r?.tags ? { tags: r.tags } : {}), ...(r?.flags ? { flags: r.flags } : {}), includeArchived: b.include_archived ?? false,
        ...(b.windowing ? { window: windowOf(b.windowing) } : {}),
      });
      res.json({ count: revisions.length, query_revisions: revisions });
    }],
    'queries.revisions.retrieve': [...guards.view, async (req, res) => {
      const b = parse(savedQueryRetrieve, req.body ?? {});
      const execute = b.include_trace_ids === true || b.include_traces === true;
      // Running the stored filter reads spans: that needs view_spans besides view_queries.
      if (execute && !can(await projectRole(pool, req.scope), 'view_spans')) {
        throw new AppError({ code: 'forbidden', kind: 'forbidden', message: FORBIDDEN_MESSAGE });
      }
      const found = await findRevision(b, (lookup) => resolveQueryRevision(pool, req.scope.projectId, lookup));
      if (!found) { res.json({ count: 0 }); return; }
      const r = found.revision;
      let body: unknown = r;
      let paging: Record<string, unknown> | undefined;
      if (execute) {
        const ran = await executeRevision(traces, req.scope.projectId, r, b.windowing);
        if (ran) {
          // Spans are JSON but not typed as the revision's data: the answer gets a widened copy.
          body = { ...r, data: { ...(r.data as Record<string, unknown>), trace_ids: ran.traceIds, ...(b.include_traces ? { traces: ran.traces } : {}) } };
          events.queried(req, ran.traceIds.length, ran.traceIds);
          if (ran.next) paging = { limit: ran.limit, order: ran.order, next: ran.next };
        }
      }
      res.json({
        count: 1, query_revision: body, ...(paging ? { windowing: paging } : {}),
        retrieval_info: {
          references: {
            query: { id: r.artifact_id, slug: r.artifact_slug },
            query_variant: { id: r.variant_id, slug: r.variant_slug },
            query_revision: { id: r.id, slug: r.slug, version: r.version },
          },
        },
      });
    }],
    'queries.revisions.log': [...guards.view, async (req, res) => {
      const b = parse(savedQueryLog, req.body).query_revisions;
      const revisionId = b.query_revision_id ?? b.revision_id;
      const variantId = b.query_variant_id ?? b.variant_id;
      const queryId = b.query_id ?? b.artifact_id;
      const revisions = await logQueryRevisions(pool, req.scope.projectId, {
        ...(revisionId ? { revisionId } : {}), ...(variantId ? { variantId } : {}), ...(queryId ? { queryId } : {}),
      }, b.depth ?? undefined);
      res.json({ count: revisions.length, query_revisions: revisions });
    }],

    'simple.queries.fetch': [...guards.view, async (req, res) => {
      const query = await readSimpleQuery(pool, req.scope.projectId, pathId(req, 'query_id'));
      res.json(query ? { count: 1, query } : { count: 0 });
    }],
    'simple.queries.query': [...guards.view, async (req, res) => {
      const b = parse(simpleSavedQueriesQuery, req.body);
      const refs = refFilter(b.query_refs);
      const queries = await listSimpleQueries(pool, req.scope.projectId, {
        ...refs, ...(b.query?.tags ? { tags: b.query.tags } : {}), ...(b.query?.flags ? { flags: b.query.flags } : {}),
        includeArchived: b.include_archived ?? false, ...(b.windowing ? { window: windowOf(b.windowing) } : {}),
      });
      res.json({ count: queries.length, queries });
    }],
  };
}
