import { describe, expect, it } from 'vitest';
import { AppError } from '@llm/errors';
import { savedQueryRefs, type SavedQueryRefs } from '@llm/contracts';
import {
  applySavedRevision, describeRefs, planRevisionLookup, resolveSavedQuery, type RevisionLookup, type StoredRevision,
} from '../src/domain/resolve-saved-query.ts';

const Q = '11111111-1111-4111-8111-111111111111';
const V = '22222222-2222-4222-8222-222222222222';
const R = '33333333-3333-4333-8333-333333333333';

const refs = (x: unknown): SavedQueryRefs => savedQueryRefs.parse(x);
const plan = (x: unknown) => planRevisionLookup(refs(x));
const lookupOf = (x: unknown): RevisionLookup => {
  const p = plan(x);
  if (!p?.ok) throw new Error(`expected a lookup, got ${JSON.stringify(p)}`);
  return p.lookup;
};
const failureOf = (x: unknown): string => {
  const p = plan(x);
  if (p === undefined || p.ok) throw new Error(`expected a failure, got ${JSON.stringify(p)}`);
  return p.message;
};

function thrown(fn: () => unknown): AppError {
  try { fn(); } catch (err) { if (err instanceof AppError) return err; throw err; }
  throw new Error('expected an AppError');
}
async function rejected(p: Promise<unknown>): Promise<AppError> {
  try { await p; } catch (err) { if (err instanceof AppError) return err; throw err; }
  throw new Error('expected an AppError');
}

describe('which revision the refs name', () => {
  it('when no ref is given (or only nulls), then nothing is resolved and the request applies as sent', () => {
    expect(plan({})).toBeUndefined();
    expect(plan({ query_ref: null, query_variant_ref: null, query_revision_ref: null })).toBeUndefined();
  });

  it('when only query_ref is given, then the latest revision of its default variant', () => {
    expect(lookupOf({ query_ref: { id: Q } })).toEqual({ queryId: Q, defaultVariant: true });
    expect(lookupOf({ query_ref: { slug: 'errors' } })).toEqual({ querySlug: 'errors', defaultVariant: true });
  });

  it('when query_variant_ref is given, then the latest revision of that variant', () => {
    expect(lookupOf({ query_variant_ref: { id: V } })).toEqual({ variantId: V, defaultVariant: false });
    expect(lookupOf({ query_ref: { slug: 'errors' }, query_variant_ref: { slug: 'default' } }))
      .toEqual({ querySlug: 'errors', variantSlug: 'default', defaultVariant: false });
  });

  it('when query_revision_ref names an id or slug, then that revision, whatever its variant', () => {
    expect(lookupOf({ query_revision_ref: { id: R } })).toEqual({ revisionId: R, defaultVariant: false });
    expect(lookupOf({ query_revision_ref: { slug: 'a1b2c3' } })).toEqual({ revisionSlug: 'a1b2c3', defaultVariant: false });
  });

  it('when query_revision_ref has a version, then that version of the named variant, or of the default variant of the named query', () => {
    expect(lookupOf({ query_variant_ref: { id: V }, query_revision_ref: { version: 2 } })).toEqual({ variantId: V, version: 2, defaultVariant: false });
    expect(lookupOf({ query_ref: { id: Q }, query_revision_ref: { version: '3' } })).toEqual({ queryId: Q, version: 3, defaultVariant: true });
  });

  it('when refs overlap, then every given ref constrains the lookup', () => {
    expect(lookupOf({ query_ref: { id: Q }, query_revision_ref: { id: R, version: 4 } })).toEqual({ queryId: Q, revisionId: R, version: 4, defaultVariant: false });
  });

  it('when the refs are not enough to name one revision, then the failure says what is missing', () => {
    expect(failureOf({ query_revision_ref: { version: 2 } })).toMatch(/version needs a query_variant_ref or a query_ref/);
    expect(failureOf({ query_variant_ref: { slug: 'default' } })).toMatch(/query_variant_ref.slug needs a query_ref/);
    expect(failureOf({ query_ref: {} })).toMatch(/query_ref needs an id or a slug/);
    expect(failureOf({ query_revision_ref: {} })).toMatch(/query_revision_ref needs an id, a slug or a version/);
    expect(failureOf({ query_ref: { id: Q, version: 2 } })).toMatch(/query_ref.version is not supported/);
  });

  it('when a ref is malformed, then the body schema refuses it (a 422 at the HTTP layer)', () => {
    expect(savedQueryRefs.safeParse({ query_ref: { id: 'nope' } }).success).toBe(false);
    expect(savedQueryRefs.safeParse({ query_revision_ref: { version: 0 } }).success).toBe(false);
    expect(savedQueryRefs.safeParse({ query_revision_ref: { version: 'v2' } }).success).toBe(false);
    expect(savedQueryRefs.safeParse({ query_ref: { id: Q, extra: 1 } }).success).toBe(false);
    expect(savedQueryRefs.safeParse({ query_ref: 'errors' }).success).toBe(false);
  });
});

describe('how a stored revision replaces the request', () => {
  const stored: StoredRevision = {
    filtering: { conditions: [{ field: 'status_code', value: 'STATUS_CODE_ERROR' }] },
    windowing: { oldest: '2025-01-01T00:00:00Z', limit: 10, order: 'ascending' },
    focus: null,
  };

  it("when the request has its own filtering and window, then the stored ones apply, with the request's limit and next on top", () => {
    const r = applySavedRevision(stored, { oldest: '2030-01-01T00:00:00Z', limit: 3, next: 'cursor', order: 'descending' }, 'span');
    expect(r.filtering).toEqual(stored.filtering);
    expect(r.windowing).toEqual({ oldest: '2025-01-01T00:00:00Z', limit: 3, order: 'ascending', next: 'cursor' });
  });

  it('when the request has no windowing, then the stored windowing applies as stored', () => {
    expect(applySavedRevision(stored, undefined, 'trace').windowing).toEqual(stored.windowing);
    expect(applySavedRevision({ ...stored, windowing: null }, { limit: 5 }, 'trace').windowing).toEqual({ limit: 5 });
  });

  it('when the request windowing is not an object, then it is handed on for the windowing compiler to refuse', () => {
    expect(applySavedRevision(stored, 'soon', 'span').windowing).toBe('soon');
  });

  it('when the stored focus is the other endpoint, then 409 naming the endpoint to use', () => {
    const onTraces = thrown(() => applySavedRevision({ ...stored, focus: 'span' }, undefined, 'trace'));
    expect(onTraces.kind).toBe('conflict');
    expect(onTraces.message).toBe('Query revision formatting.focus=span. Use /spans/query for this query revision.');
    const onSpans = thrown(() => applySavedRevision({ ...stored, focus: 'trace' }, undefined, 'span'));
    expect(onSpans.message).toBe('Query revision formatting.focus=trace. Use /traces/query for this query revision.');
  });

  it('when the stored focus matches or is absent, then either endpoint may use it accordingly', () => {
    expect(() => applySavedRevision({ ...stored, focus: 'span' }, undefined, 'span')).not.toThrow();
    expect(() => applySavedRevision({ ...stored, focus: null }, undefined, 'trace')).not.toThrow();
  });
});

describe('resolution end to end (lookup injected)', () => {
  const stored: StoredRevision = { filtering: { conditions: [] }, windowing: null, focus: 'trace' };

  it('when refs name a stored revision, then the finder gets the planned lookup and its revision applies', async () => {
    const seen: RevisionLookup[] = [];
    const r = await resolveSavedQuery(refs({ query_ref: { slug: 'errors' } }), { limit: 7 }, 'trace', async (l) => { seen.push(l); return stored; });
    expect(seen).toEqual([{ querySlug: 'errors', defaultVariant: true }]);
    expect(r).toEqual({ filtering: stored.filtering, windowing: { limit: 7 } });
  });

  it('when nothing matches, then not_found naming the refs, never an empty result', async () => {
    const e = await rejected(resolveSavedQuery(refs({ query_ref: { slug: 'gone' }, query_revision_ref: { version: 9 } }), undefined, 'span', async () => undefined));
    expect(e.kind).toBe('not_found');
    expect(e.message).toBe('No saved query revision matches query_ref {"slug":"gone"}, query_revision_ref {"version":9}.');
  });

  it('when the refs are insufficient, then invalid before any lookup', async () => {
    let called = false;
    const e = await rejected(resolveSavedQuery(refs({ query_revision_ref: { version: 1 } }), undefined, 'span', async () => { called = true; return stored; }));
    expect(e.kind).toBe('invalid');
    expect(called).toBe(false);
  });

  it('when there are no refs, then nothing is looked up', async () => {
    const r = await resolveSavedQuery(refs({}), undefined, 'span', async () => { throw new Error('must not be called'); });
    expect(r).toBeUndefined();
  });

  it('when describing refs, then null and absent fields are left out', () => {
    expect(describeRefs(refs({ query_variant_ref: { id: V, slug: null } }))).toBe(`query_variant_ref {"id":"${V}"}`);
  });
});
