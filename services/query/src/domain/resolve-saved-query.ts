// Saved-query references on POST /spans/query and /traces/query (reference §5.5): which stored
// revision `query_ref`, `query_variant_ref` and `query_revision_ref` name, and how it replaces the
// request's filtering and windowing.
//
// Deviation from the reference: refs that name nothing, or not enough, answer 404 / 400 naming the
// refs instead of an empty 200 — a dashboard must not show "no traces" for a deleted query.
import type { SavedQueryRef, SavedQueryRefs } from '@llm/contracts';
import type { SavedQueryLookup as RevisionLookup, StoredQueryRevision as StoredRevision } from '@llm/accounts-read';
import { conflict, invalid, notFound } from '@llm/errors';

export type Focus = 'span' | 'trace';

// The constraints and the stored revision are the saved-query reader's: it runs the lookup as one query.
export type { RevisionLookup, StoredRevision };

export interface ResolvedQuery {
  filtering: unknown;
  windowing: unknown;
}

export type LookupPlan = { ok: true; lookup: RevisionLookup } | { ok: false; message: string };

const given = (r: SavedQueryRef | null | undefined): r is SavedQueryRef => r !== null && r !== undefined;

/** `undefined` when no ref is given (the request's own filtering and windowing apply). */
export function planRevisionLookup(refs: SavedQueryRefs): LookupPlan | undefined {
  const q = given(refs.query_ref) ? refs.query_ref : undefined;
  const v = given(refs.query_variant_ref) ? refs.query_variant_ref : undefined;
  const r = given(refs.query_revision_ref) ? refs.query_revision_ref : undefined;
  if (!q && !v && !r) return undefined;
  const fail = (message: string): LookupPlan => ({ ok: false, message });

  if (q && !q.id && !q.slug) return fail('query_ref needs an id or a slug.');
  if (v && !v.id && !v.slug) return fail('query_variant_ref needs an id or a slug.');
  if (r && !r.id && !r.slug && r.version == null) return fail('query_revision_ref needs an id, a slug or a version.');
  // A version numbers the revisions of one variant; on a query or variant ref it would be ambiguous.
  if (q?.version != null) return fail('query_ref.version is not supported; give the version in query_revision_ref.');
  if (v?.version != null) return fail('query_variant_ref.version is not supported; give the version in query_revision_ref.');
  // Variant slugs (like "default") repeat across queries.
  if (v && !v.id && !q) return fail('query_variant_ref.slug needs a query_ref (variant slugs are unique per query only).');
  const revisionNamed = Boolean(r?.id || r?.slug);
  if (r && !revisionNamed && !v && !q) return fail('query_revision_ref.version needs a query_variant_ref or a query_ref.');

  const lookup: RevisionLookup = { defaultVariant: !v && !revisionNamed };
  if (q?.id) lookup.queryId = q.id;
  if (q?.slug) lookup.querySlug = q.slug;
  if (v?.id) lookup.variantId = v.id;
  if (v?.slug) lookup.variantSlug = v.slug;
  if (r?.id) lookup.revisionId = r.id;
  if (r?.slug) lookup.revisionSlug = r.slug;
  if (r?.version != null) lookup.version = r.version;
  return { ok: true, lookup };
}

/**
 * The stored filtering replaces the request's; the stored windowing applies with the request's
 * `limit` and `next` on top (so a client can page through a saved query); the stored focus must be
 * the endpoint's.
 */
export function applySavedRevision(rev: StoredRevision, requestWindowing: unknown, focus: Focus): ResolvedQuery {
  const stored = rev.focus ?? focus;
  if (stored !== focus) {
    const endpoint = stored === 'span' ? '/spans/query' : '/traces/query';
    throw conflict('query_focus_conflict', `Query revision formatting.focus=${stored}. Use ${endpoint} for this query revision.`);
  }
  return { filtering: rev.filtering, windowing: mergeWindowing(rev.windowing, requestWindowing) };
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

/** Looks up the revision the refs name (the lookup is the adapter's), then applies it. */
export async function resolveSavedQuery(
  refs: SavedQueryRefs,
  requestWindowing: unknown,
  focus: Focus,
  find: (lookup: RevisionLookup) => Promise<StoredRevision | undefined>,
): Promise<ResolvedQuery | undefined> {
  const plan = planRevisionLookup(refs);
  if (plan === undefined) return undefined;
  if (!plan.ok) throw invalid('invalid_query_ref', plan.message);
  const rev = await find(plan.lookup);
  if (!rev) throw notFound('query_revision_not_found', `No saved query revision matches ${describeRefs(refs)}.`);
  return applySavedRevision(rev, requestWindowing, focus);
}

/** `query_ref {"slug":"errors"}, query_revision_ref {"version":3}` — the refs as the client sent them. */
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
