import { describe, expect, it } from 'vitest';
import { isVersionConflict, type DecodedEvent, type QueryRevisionInfo } from '@llm/events';
import { projectSavedQueryEvent, savedQueryFactsNeeded, type SavedQueryFacts } from '../src/domain/saved-query-projection.ts';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const QUERY = '00000000-0000-4000-8000-000000000002';
const VARIANT = '00000000-0000-4000-8000-000000000003';
const REVISION = '00000000-0000-4000-8000-000000000004';

const revision = (version: number): QueryRevisionInfo => ({
  id: REVISION, slug: 'abc123', version, filtering_json: '{"conditions":[]}', windowing_json: '', focus: 'span', format: '', message: '',
});
const envelope = { eventId: 'e', schemaVersion: 1, projectId: PROJECT, organizationId: '', timeUs: 1_700_000_000_000_000, requestId: '', actorId: 'u1', aggregateId: '' };
const created = (): DecodedEvent<'accounts.query.created'> => ({
  ...envelope, type: 'accounts.query.created', expectedVersion: 0,
  payload: { query_id: QUERY, slug: 'errors', name: '', description: '', variant_id: VARIANT, variant_slug: 'default', revision: revision(1) },
});
const committed = (version: number, expectedVersion: number): DecodedEvent<'accounts.query.revision.committed'> => ({
  ...envelope, type: 'accounts.query.revision.committed', expectedVersion,
  payload: { query_id: QUERY, variant_id: VARIANT, revision: revision(version) },
});
const facts = (f: Partial<SavedQueryFacts> = {}): SavedQueryFacts => ({ queryExists: false, slugTaken: false, revisionSlugTaken: false, variantVersion: undefined, ...f });

describe('saved-query projection', () => {
  it('when a query is created with a free slug, then the query, its default variant and revision 1 are inserted', () => {
    const p = projectSavedQueryEvent(created(), facts());
    expect(p.status).toBe('applied');
    if (p.status !== 'applied') return;
    expect(p.statements.map((s) => s.text.split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'INSERT INTO saved_queries', 'INSERT INTO saved_query_variants', 'INSERT INTO saved_query_revisions',
    ]);
    // The filtering stays JSON text until Postgres casts it to jsonb.
    expect(p.statements[2]!.values).toContain('{"conditions":[]}');
  });

  it('when the slug is already taken in the project, then the creation is rejected with a reason the command maps to 409', () => {
    expect(projectSavedQueryEvent(created(), facts({ slugTaken: true }))).toEqual({ status: 'rejected', reason: "Query with slug 'errors' already exists in this project." });
  });

  it('when a commit expects the current version, then it applies as the next version', () => {
    const p = projectSavedQueryEvent(committed(3, 2), facts({ queryExists: true, variantVersion: 2 }));
    expect(p.status).toBe('applied');
  });

  it('when another commit got in first, then the stale one is a version conflict, not a second revision 3', () => {
    const p = projectSavedQueryEvent(committed(3, 2), facts({ queryExists: true, variantVersion: 3 }));
    expect(p.status).toBe('rejected');
    if (p.status === 'rejected') expect(isVersionConflict(p.reason)).toBe(true);
  });

  it('when a commit claims a version that does not follow, then it is rejected', () => {
    expect(projectSavedQueryEvent(committed(5, 0), facts({ queryExists: true, variantVersion: 2 })).status).toBe('rejected');
  });

  it('when the variant is not a variant of that query in that project, then the commit is rejected as not found', () => {
    expect(projectSavedQueryEvent(committed(2, 1), facts())).toEqual({ status: 'rejected', reason: 'Query not found.' });
  });

  it('when facts are needed, then they name the project, the query, the slugs and the variant', () => {
    expect(savedQueryFactsNeeded(created())).toEqual({ projectId: PROJECT, queryId: QUERY, revisionSlug: 'abc123', slug: 'errors' });
    expect(savedQueryFactsNeeded(committed(2, 1))).toEqual({ projectId: PROJECT, queryId: QUERY, revisionSlug: 'abc123', variantId: VARIANT });
  });
});
