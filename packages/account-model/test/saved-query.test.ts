// Given/when/then of the saved-query aggregate: slugs unique per project, revisions numbered in
// order, a stale commit refused.
import { describe, expect, it } from 'vitest';
import type { QueryRevisionInfo } from '@llm/events';
import { savedQuery } from '../src/aggregates/saved-query.ts';
import { ev, given } from './support/given.ts';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000009';
const QUERY = '00000000-0000-4000-8000-000000000002';
const VARIANT = '00000000-0000-4000-8000-000000000003';
const QUERY_B = '00000000-0000-4000-8000-000000000012';
const VARIANT_B = '00000000-0000-4000-8000-000000000013';
const rid = (n: number) => `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;

const revision = (version: number, slug = `rev${version}`, id = rid(version)): QueryRevisionInfo => ({
  id, slug, version, filtering_json: '{"conditions":[]}', windowing_json: '', focus: 'span', format: '', message: '',
});
const created = (o: { project?: string; query?: string; variant?: string; slug?: string; revision?: QueryRevisionInfo } = {}) =>
  ev('accounts.query.created', {
    query_id: o.query ?? QUERY, slug: o.slug ?? 'errors', name: '', description: '', variant_id: o.variant ?? VARIANT, variant_slug: 'default',
    revision: o.revision ?? revision(1),
  }, { projectId: o.project ?? PROJECT, actorId: 'u1' });
const committed = (version: number, expectedVersion: number, o: { project?: string; query?: string; variant?: string; slug?: string } = {}) =>
  ev('accounts.query.revision.committed', { query_id: o.query ?? QUERY, variant_id: o.variant ?? VARIANT, revision: revision(version, o.slug) },
    { projectId: o.project ?? PROJECT, expectedVersion });

describe('saved-query aggregate', () => {
  it('given nothing, when a query is created, then it has its slug and a default variant at version 1', () => {
    const t = given(savedQuery, []).when(created());
    expect(t.decision.status).toBe('accepted');
    expect(t.state).toEqual({
      queries: [{ id: QUERY, projectId: PROJECT, slug: 'errors', variants: [{ id: VARIANT, slug: 'default', isDefault: true, latestVersion: 1 }] }],
      revisionSlugs: [{ projectId: PROJECT, slug: 'rev1' }],
    });
  });

  it('given a query, when a commit expects its version, then the variant moves to the next version', () => {
    const t = given(savedQuery, [created(), committed(2, 1)]).when(committed(3, 2));
    expect(t.decision.status).toBe('accepted');
    expect(t.state.queries[0]!.variants[0]!.latestVersion).toBe(3);
    expect(t.state.revisionSlugs.map((r) => r.slug)).toEqual(['rev1', 'rev2', 'rev3']);
  });

  it('given a query, when another with the same id is created, then query_exists', () => {
    const t = given(savedQuery, [created()]).when(created({ project: OTHER, slug: 'other', revision: revision(1, 'x') }));
    expect(t.decision).toMatchObject({ status: 'rejected', code: 'query_exists' });
  });

  it('given a slug in use, when the project creates another query with it, then query_slug_exists with the slug; another project may use it', () => {
    const h = given(savedQuery, [created()]);
    const again = created({ query: QUERY_B, variant: VARIANT_B, revision: revision(1, 'x', rid(50)) });
    expect(h.when(again).decision).toEqual({
      status: 'rejected', code: 'query_slug_exists', message: "Query with slug 'errors' already exists in this project.", details: { slug: 'errors' },
    });
    expect(h.when({ ...again, projectId: OTHER }).decision.status).toBe('accepted');
  });

  it('given a revision slug in use in the project, when a creation or a commit reuses it, then query_revision_slug_exists', () => {
    const h = given(savedQuery, [created()]);
    expect(h.when(created({ query: QUERY_B, variant: VARIANT_B, slug: 'b', revision: revision(1, 'rev1', rid(50)) })).decision)
      .toMatchObject({ code: 'query_revision_slug_exists', details: { slug: 'rev1' } });
    expect(h.when(committed(2, 1, { slug: 'rev1' })).decision).toMatchObject({ code: 'query_revision_slug_exists' });
  });

  it('given no such variant of that query in that project, when a commit arrives, then query_not_found', () => {
    const h = given(savedQuery, [created()]);
    for (const e of [committed(2, 1, { query: QUERY_B }), committed(2, 1, { variant: VARIANT_B }), committed(2, 1, { project: OTHER })]) {
      expect(h.when(e).decision).toEqual({ status: 'rejected', code: 'query_not_found', message: 'Query not found.' });
    }
  });

  it('given another commit got in first, when the stale one arrives, then query_version_conflict with the current version, and the state is unchanged', () => {
    const h = given(savedQuery, [created(), committed(2, 1)]);
    const t = h.when(committed(2, 1, { slug: 'late' }));
    expect(t.decision).toEqual({
      status: 'rejected', code: 'query_version_conflict',
      message: 'Query revision conflict: expected version 1, but the current version is 2.', details: { current_version: 2 },
    });
    expect(t.state).toBe(h.state);
  });

  it('when an event is malformed, then malformed_event', () => {
    const h = given(savedQuery, [created()]);
    const cases = [
      created({ project: '' }), created({ query: 'q1' }), created({ variant: 'v1' }), created({ revision: revision(1, 'x', 'r1') }),
      created({ query: QUERY_B, variant: VARIANT_B, slug: 'b', revision: revision(2, 'x', rid(50)) }),
      committed(2, 1, { project: 'not-a-uuid' }),
      // Without an expected version the revision still has to follow the current one.
      committed(5, 0),
    ];
    for (const e of cases) expect(h.when(e).decision).toMatchObject({ status: 'rejected', code: 'malformed_event' });
  });

  it('given a query at version 2, when a commit expects nothing (0), then it lands as version 3', () => {
    const t = given(savedQuery, [created(), committed(2, 1)]).when(committed(3, 0));
    expect(t.decision.status).toBe('accepted');
    expect(t.state.queries[0]!.variants[0]!.latestVersion).toBe(3);
  });

  it('ids name the same query whatever the case of their hex digits (the readers look them up as uuid)', () => {
    const up = { project: PROJECT.toUpperCase(), query: QUERY.toUpperCase(), variant: VARIANT.toUpperCase() };
    expect(given(savedQuery, [created()]).when(committed(2, 1, up)).decision.status).toBe('accepted');
    expect(given(savedQuery, [created()]).when(created({ query: QUERY.toUpperCase(), slug: 'other' })).decision).toMatchObject({ code: 'query_exists' });
  });
});
