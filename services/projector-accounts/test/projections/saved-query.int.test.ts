// The saved-query projection's SQL against the real Postgres: after each fact, the state the reader
// loads is the state the aggregate's `evolve` says; rejections (a lost version race among them)
// leave the rows alone; the reader's views show what was stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { savedQuery, type AccountEvent, type SavedQueryEvent, type SavedQueryState } from '@llm/account-model';
import {
  findSavedQueryRevision, listSavedQueryRevisions, loadSavedQueries, loadSavedQueryState, querySlugTaken, readDefaultVariant, readLatestSavedQuery,
} from '@llm/accounts-read';
import type { QueryRevisionInfo } from '@llm/events';
import { openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const [P, P2, Q1, Q2, Q3, V1, V2, V3] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
const envelope = (projectId: string, expectedVersion = 0) => ({ projectId, organizationId: '', actorId: 'u1', expectedVersion, timeUs: Date.now() * 1000 });
const revision = (version: number, slug: string, filtering = ''): QueryRevisionInfo => ({
  id: randomUUID(), slug, version, filtering_json: filtering, windowing_json: '{"limit":3}', focus: 'span', format: '', message: `v${version}`,
});
const created = (projectId: string, queryId: string, variantId: string, slug: string, rev: QueryRevisionInfo): SavedQueryEvent => ({
  type: 'accounts.query.created', ...envelope(projectId),
  payload: { query_id: queryId, slug, name: 'Errors', description: '', variant_id: variantId, variant_slug: 'default', revision: rev },
});
const committed = (projectId: string, version: number, expected: number, slug: string, queryId = Q1, variantId = V1): SavedQueryEvent => ({
  type: 'accounts.query.revision.committed', ...envelope(projectId, expected),
  payload: { query_id: queryId, variant_id: variantId, revision: revision(version, slug, `{"conditions":[{"field":"span_name","value":"v${version}"}]}`) },
});

const REVISION_SLUGS = ['s1', 's2', 's2b', 's2c', 's3', 's4', 's5', 'x1', 'x2'];
/** Everything the test wrote that the reader sees from `projectId`: every query by id, the project's revision slugs. */
const loadAll = (projectId: string) =>
  loadSavedQueries(db.pool, { projectId, queryIds: [Q1, Q2, Q3], slugs: ['errors', 'other'], revisionSlugs: REVISION_SLUGS });
const normal = (s: SavedQueryState, projectId: string) => ({
  queries: [...s.queries].sort((a, b) => a.id.localeCompare(b.id)),
  revisionSlugs: s.revisionSlugs.filter((r) => r.projectId === projectId).map((r) => r.slug).sort(),
});

describe('saved-query projection (Postgres)', () => {
  it('stores what evolve says, fact by fact; a rejected event changes nothing', async () => {
    const history: Array<[SavedQueryEvent, string]> = [
      [created(P, Q1, V1, 'errors', revision(1, 's1')), 'accepted'],
      [committed(P, 2, 1, 's2'), 'accepted'],
      // Read version 1 like the commit before it, and lost the race on the partition.
      [committed(P, 2, 1, 's2b'), 'query_version_conflict'],
      [committed(P, 3, 0, 's3'), 'accepted'],
      [committed(P, 5, 0, 's5'), 'malformed_event'],
      [created(P, Q2, V2, 'errors', revision(1, 'x1')), 'query_slug_exists'],
      [created(P, Q3, V3, 'other', revision(1, 's1')), 'query_revision_slug_exists'],
      [created(P2, Q1, V2, 'other', revision(1, 'x2')), 'query_exists'],
      [committed(P2, 4, 0, 's4'), 'query_not_found'],
      // Slugs are per project: another project may use them.
      [created(P2, Q2, V2, 'errors', revision(1, 's1')), 'accepted'],
      [{ ...created(P, randomUUID(), V3, 'third', revision(1, 'x2')), projectId: 'not-a-uuid' }, 'malformed_event'],
    ];
    let expected = savedQuery.initial;
    for (const [e, want] of history) {
      const before = await loadSavedQueryState(db.pool, e);
      const decision = savedQuery.decide(e, before);
      expect(decision.status === 'accepted' ? 'accepted' : decision.code).toBe(want);
      const [outcome] = await db.apply(e as AccountEvent);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      if (decision.status === 'accepted') expected = savedQuery.evolve(expected, e);
      for (const project of [P, P2]) expect(normal(await loadAll(project), project)).toEqual(normal(expected, project));
    }
    expect(expected.queries.find((q) => q.id === Q1)?.variants).toEqual([{ id: V1, slug: 'default', isDefault: true, latestVersion: 3 }]);
    expect((await db.apply(committed(P, 2, 1, 's2c') as AccountEvent))[0]).toMatchObject({ code: 'query_version_conflict', details: { current_version: 3 } });
  });

  it('the reader answers the commands and the query service from the stored rows', async () => {
    expect(await readDefaultVariant(db.pool, P, Q1)).toEqual({ queryId: Q1, variantId: V1, version: 3 });
    expect(await readDefaultVariant(db.pool, P2, Q1)).toBeUndefined();
    expect(await querySlugTaken(db.pool, P, 'errors')).toBe(true);
    expect(await querySlugTaken(db.pool, P, 'other')).toBe(false);

    const latest = await readLatestSavedQuery(db.pool, P, Q1);
    expect(latest).toMatchObject({
      query: { id: Q1, slug: 'errors', name: 'Errors', description: null, created_by_id: 'u1' },
      query_variant: { id: V1, slug: 'default', query_id: Q1 },
      query_revision: {
        version: 3, slug: 's3', query_id: Q1, query_variant_id: V1, message: 'v3', formatting: { focus: 'span' },
        data: { filtering: { conditions: [{ field: 'span_name', value: 'v3' }] }, windowing: { limit: 3 } },
      },
    });
    expect(await readLatestSavedQuery(db.pool, P2, Q1)).toBeUndefined();
    const list = await listSavedQueryRevisions(db.pool, P, Q1);
    expect(list?.query_revisions.map((r) => r.version)).toEqual([3, 2, 1]);
    // Revision 1 was stored without filtering: the view leaves it out.
    expect(list?.query_revisions[2]?.data).toEqual({ windowing: { limit: 3 } });

    const v2 = await findSavedQueryRevision(db.pool, P, { querySlug: 'errors', defaultVariant: true, version: 2 });
    expect(v2).toEqual({ filtering: { conditions: [{ field: 'span_name', value: 'v2' }] }, windowing: { limit: 3 }, focus: 'span' });
    expect(await findSavedQueryRevision(db.pool, P2, { queryId: Q1, defaultVariant: true })).toBeUndefined();
  });
});
