// Saved-query references (reference compat §1.4, tracing §5.5): which stored revision
// `query_ref`, `query_variant_ref` and `query_revision_ref` name — the same rules for
// POST /queries/revisions/retrieve and for POST /spans/query and /traces/query — and how a
// revision's data replaces a span/trace query's filtering and windowing.
//
// Deviation from the reference on /spans/query and /traces/query: refs that resolve to nothing
// answer 404 naming them instead of an empty 200 — a dashboard must not show "no traces" for a
// deleted query. Retrieve keeps the reference's `{"count":0}`.
import type { SavedQueryRef, SavedQueryRefs } from '@llm/contracts';
import type { QueryRevisionView as StoredRevision, RevisionRefs as RevisionLookup } from '@llm/account-model';
import { conflict, invalid, notFound } from '@llm/errors';

export type Focus = 'span' | 'trace';

export type { RevisionLookup, StoredRevision };

export interface ResolvedQuery {
  filtering: unknown;
  windowing: unknown;
}

export type LookupPlan = { ok: true; lookup: RevisionLookup } | { ok: false; message: string };

const given = (r: SavedQueryRef | null | undefined): r is SavedQueryRef => r !== null && r !== undefined;
const identifies = (r: SavedQueryRef | undefined): boolean => Boolean(r?.id || r?.slug);

/** The reference's 400 texts (§1.4 rules 1 and 2). */
export const VARIANT_VERSION_ONLY = 'query_variant_ref carries only `version`, but variants have no `version` field. Identify the variant by query_variant_ref.id or query_variant_ref.slug.';
export const REVISION_VERSION_UNSCOPED = 'query_revision_ref.version is a per-variant sequence number and requires a query_variant_ref or query_ref to scope it. Provide either, or identify the revision by query_revision_ref.id or query_revision_ref.slug (both are project-unique).';

/** `undefined` when no ref identifies anything (retrieve: `{"count":0}`; span/trace queries: the request's own filtering). */
export function planRevisionLookup(refs: SavedQueryRefs): LookupPlan | undefined {
  const q = given(refs.query_ref) ? refs.query_ref : undefined;
  const v = given(refs.query_variant_ref) ? refs.query_variant_ref : undefined;
  const r = given(refs.query_revision_ref) ? refs.query_revision_ref : undefined;
  if (v && !identifies(v) && v.version != null) return { ok: false, message: VARIANT_VERSION_ONLY };
  if (r && !identifies(r) && r.version != null && !identifies(v) && !identifies(q)) return { ok: false, message: REVISION_VERSION_UNSCOPED };
  if (!identifies(q) && !identifies(v) && !identifies(r)) return undefined;
  return { ok: true, lookup: { query: q, variant: v, revision: r } };
}

/** Python's repr of a string, as the reference's messages quote values. */
const quoted = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * Every supplied ref field must name the resolved revision: the mismatches as the reference words
 * them (`query_ref.slug='x' does not match resolved revision's artifact_slug='y'`), or undefined.
 */
export function inconsistency(refs: RevisionLookup, rev: StoredRevision): string | undefined {
  const checks: Array<[string, string | null | undefined, string, string | undefined]> = [
    ['query_ref.id', refs.query?.id, 'artifact_id', rev.artifact_id],
    ['query_ref.slug', refs.query?.slug, 'artifact_slug', rev.artifact_slug],
    ['query_variant_ref.id', refs.variant?.id, 'variant_id', rev.variant_id],
    ['query_variant_ref.slug', refs.variant?.slug, 'variant_slug', rev.variant_slug],
    ['query_revision_ref.id', refs.revision?.id, 'id', rev.id],
    ['query_revision_ref.slug', refs.revision?.slug, 'slug', rev.slug],
    ['query_revision_ref.version', refs.revision?.version, 'version', rev.version],
  ];
  const same = (field: string, a: string, b: string | undefined): boolean => (field.endsWith('.id') ? a.toLowerCase() === b?.toLowerCase() : a === b);
  const problems = checks
    .filter(([field, sent, , actual]) => sent !== null && sent !== undefined && !same(field, sent, actual))
    .map(([field, sent, name, actual]) => `${field}=${quoted(String(sent))} does not match resolved revision's ${name}=${quoted(actual ?? 'None')}`);
  return problems.length ? problems.join('; ') : undefined;
}

/**
 * Plans, looks up (the lookup is the adapter's) and checks the refs: the revision, `undefined`
 * when no ref identifies anything or nothing matches, or a 400 for refs that cannot or do not fit.
 */
export async function findRevision(
  refs: SavedQueryRefs, find: (lookup: RevisionLookup) => Promise<StoredRevision | undefined>,
): Promise<{ revision: StoredRevision; lookup: RevisionLookup } | undefined> {
  const plan = planRevisionLookup(refs);
  if (plan === undefined) return undefined;
  if (!plan.ok) throw invalid('invalid_query_ref', plan.message);
  const rev = await find(plan.lookup);
  if (!rev) return undefined;
  const bad = inconsistency(plan.lookup, rev);
  if (bad) throw invalid('inconsistent_query_ref', bad);
  return { revision: rev, lookup: plan.lookup };
}

interface StoredData { formatting?: { focus?: unknown; format?: unknown }; filtering?: unknown; windowing?: unknown }
const dataOf = (rev: StoredRevision): StoredData => (rev.data ?? {}) as StoredData;

/**
 * The stored filtering replaces the request's; the stored windowing applies with the request's
 * `limit` and `next` on top (so a client can page through a saved query); the stored focus must be
 * the endpoint's.
 */
export function applySavedRevision(rev: StoredRevision, requestWindowing: unknown, focus: Focus): ResolvedQuery {
  const data = dataOf(rev);
  const stored = data.formatting?.focus === 'span' || data.formatting?.focus === 'trace' ? data.formatting.focus : focus;
  if (stored !== focus) {
    const endpoint = stored === 'span' ? '/spans/query' : '/traces/query';
    throw conflict('query_focus_conflict', `Query revision formatting.focus=${stored}. Use ${endpoint} for this query revision.`);
  }
  return { filtering: data.filtering, windowing: mergeWindowing(data.windowing, requestWindowing) };
}

function mergeWindowing(stored: unknown, request: unknown): unknown {
  const base = isObject(stored) ? stored : {};
  if (request === undefined || request === null) return base;
  // Not an object: handed on unchanged so the windowing compiler answers 422 exactly as it does
  // for a request without refs.
  if (!isObject(request)) return request;
  const out: Record<string, unknown> = { ...base };
  if (request.limit !== undefined && request.limit !== null) out.limit = request.limit;
  if (request.next !== undefined && request.next !== null) out.next = request.next;
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** For POST /spans/query and /traces/query: the stored revision the refs name, applied. */
export async function resolveSavedQuery(
  refs: SavedQueryRefs,
  requestWindowing: unknown,
  focus: Focus,
  find: (lookup: RevisionLookup) => Promise<StoredRevision | undefined>,
): Promise<ResolvedQuery | undefined> {
  const plan = planRevisionLookup(refs);
  if (plan === undefined) return undefined;
  const found = await findRevision(refs, find);
  if (!found) throw notFound('query_revision_not_found', `No saved query revision matches ${describeRefs(refs)}.`);
  return applySavedRevision(found.revision, requestWindowing, focus);
}

/** `query_ref {"slug":"errors"}, query_revision_ref {"version":"3"}` — the refs as the client sent them. */
export function describeRefs(refs: SavedQueryRefs): string {
  const parts: string[] = [];
  for (const name of ['query_ref', 'query_variant_ref', 'query_revision_ref'] as const) {
    const r = refs[name];
    if (!given(r)) continue;
    const shown = Object.fromEntries(Object.entries(r).filter(([, x]) => x !== undefined && x !== null));
    parts.push(`${name} ${JSON.stringify(shown)}`);
  }
  return parts.join(', ');
}

/** What POST /queries/revisions/retrieve runs for a revision's trace execution (§1.4). */
export interface RetrievalRun extends ResolvedQuery {
  focus: Focus;
  format: 'agenta' | 'opentelemetry';
}

/**
 * The stored filter with its focus (default `trace`) and format (default `agenta`); the stored
 * windowing with the request's `limit`/`next` on top, or the request's windowing alone when none
 * is stored. `undefined` when the revision has no data (nothing to run).
 */
export function retrievalRun(rev: StoredRevision, requestWindowing: unknown): RetrievalRun | undefined {
  if (rev.data === null || rev.data === undefined) return undefined;
  const data = dataOf(rev);
  const focus: Focus = data.formatting?.focus === 'span' ? 'span' : 'trace';
  const format = data.formatting?.format === 'opentelemetry' ? 'opentelemetry' : 'agenta';
  const windowing = isObject(data.windowing) ? mergeWindowing(data.windowing, requestWindowing) : requestWindowing;
  return { filtering: data.filtering, windowing, focus, format };
}
