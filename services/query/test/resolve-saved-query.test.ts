// Given/when/then of saved-query ref resolution (reference compat §1.4): the 400s before any
// lookup, the consistency check after it, and how a revision's data replaces a span/trace query.
import { describe, expect, it } from 'vitest';
import { savedQueryRefs, type SavedQueryRefs } from '@llm/contracts';
import type { QueryRevisionView } from '@llm/account-model';
import {
  REVISION_VERSION_UNSCOPED, VARIANT_VERSION_ONLY, applySavedRevision, findRevision, inconsistency, planRevisionLookup, resolveSavedQuery,
} from '../src/domain/resolve-saved-query.ts';

const Q = '00000000-0000-4000-8000-000000000001';
const V = '00000000-0000-4000-8000-000000000002';
const R = '00000000-0000-4000-8000-000000000003';
const refs = (x: unknown): SavedQueryRefs => savedQueryRefs.parse(x);
const rev = (data?: QueryRevisionView['data']): QueryRevisionView => ({
  id: R, slug: 'r', version: '1', query_id: Q, artifact_id: Q, query_variant_id: V, variant_id: V,
  query_slug: 'q', artifact_slug: 'q', query_variant_slug: 'v', variant_slug: 'v', ...(data ? { data } : {}),
});

describe('saved-query refs', () => {
  it('given a version-only variant ref, or an unscoped version-only revision ref, when planned, then the reference 400 texts', () => {
    expect(planRevisionLookup(refs({ query_variant_ref: { version: '1' } }))).toEqual({ ok: false, message: VARIANT_VERSION_ONLY });
    expect(planRevisionLookup(refs({ query_revision_ref: { version: '1' } }))).toEqual({ ok: false, message: REVISION_VERSION_UNSCOPED });
    expect(planRevisionLookup(refs({ query_ref: { slug: 'q' }, query_revision_ref: { version: '0' } }))).toMatchObject({ ok: true });
    expect(planRevisionLookup(refs({}))).toBeUndefined();
  });

  it('given versions as numbers or bad slugs, when parsed, then rejected (422 at the route)', () => {
    expect(savedQueryRefs.safeParse({ query_revision_ref: { version: 1 } }).success).toBe(false);
    expect(savedQueryRefs.safeParse({ query_ref: { slug: 'a b' } }).success).toBe(false);
  });

  it('given a resolved revision, when a supplied ref field differs, then each mismatch is named, joined by "; "', () => {
    const lookup = { query: { slug: 'x' }, revision: { id: R, version: '2' } };
    expect(inconsistency(lookup, rev())).toBe("query_ref.slug='x' does not match resolved revision's artifact_slug='q'; query_revision_ref.version='2' does not match resolved revision's version='1'");
    expect(inconsistency({ query: { id: Q.toUpperCase() }, variant: { slug: 'v' } }, rev())).toBeUndefined();
  });

  it('given an inconsistent lookup result, when found, then 400; nothing found is undefined', async () => {
    await expect(findRevision(refs({ query_ref: { slug: 'x' }, query_revision_ref: { id: R } }), async () => rev())).rejects.toMatchObject({ kind: 'invalid' });
    expect(await findRevision(refs({ query_ref: { id: Q } }), async () => undefined)).toBeUndefined();
  });

  it('given stored data, when applied to a query, then the stored filtering wins, request limit/next override, and a focus conflict is 409', async () => {
    const r = rev({ filtering: { conditions: [] }, windowing: { limit: 5, order: 'ascending' }, formatting: { focus: 'span' } });
    expect(applySavedRevision(r, { limit: 7, oldest: 'x' }, 'span')).toEqual({ filtering: { conditions: [] }, windowing: { limit: 7, order: 'ascending' } });
    expect(() => applySavedRevision(r, undefined, 'trace')).toThrow(/Use \/spans\/query/);
    await expect(resolveSavedQuery(refs({ query_ref: { slug: 'gone' } }), undefined, 'span', async () => undefined)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
