// The saved-query projection's SQL against the real Postgres: after each fact, the state the reader
// loads is the state the aggregate's `evolve` says; rejections (a lost version race among them)
// leave the rows alone; the reader's views, lists, log and ref resolution show what was stored —
// events of the first model included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { legacyVariantSlug, savedQuery, type AccountEvent, type SavedQueryEvent, type SavedQueryState } from '@llm/account-model';
import {
  listSimpleQueries, loadSavedQueries, loadSavedQueryState, logQueryRevisions, readQueryRevision, readSimpleQuery, resolveQueryRevision,
} from '@llm/accounts-read';
import type { QueryHeader } from '@llm/events';
import { openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const [P, P2, Q1, Q2, V1, V2, L, LV] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
const envelope = (projectId: string) => ({ projectId, organizationId: '', actorId: 'u1', expectedVersion: 0, timeUs: Date.now() * 1000 });
const header = (name = ''): QueryHeader => ({ name, description: '', tags_json: name ? '{"team":"a"}' : '', meta_json: '', flags_json: '' });
const artifact = (p: string, q: string, slug: string): SavedQueryEvent => ({ type: 'accounts.query.artifact.created', ...envelope(p), payload: { query_id: q, slug, header: header('Errors'), folder_id: '' } });
const variant = (p: string, q: string, v: string, slug: string): SavedQueryEvent => ({ type: 'accounts.query.variant.created', ...envelope(p), payload: { query_id: q, variant_id: v, slug, header: header() } });
const revision = (p: string, version: number, slug: string, data = ''): SavedQueryEvent => ({
  type: 'accounts.query.revision.added', ...envelope(p),
  payload: { query_id: Q1, variant_id: V1, revision_id: randomUUID(), slug, version, header: header(), data_json: data, message: `v${version}` },
});
const legacyCreated: SavedQueryEvent = {
  type: 'accounts.query.created', ...envelope(P),
  payload: { query_id: L, slug: 'legacy', name: 'Old', description: '', variant_id: LV, variant_slug: 'default', revision: { id: randomUUID(), slug: 'l1', version: 1, filtering_json: '{"conditions":[]}', windowing_json: '', focus: 'span', format: '', message: '' } },
};

const loadAll = (projectId: string) => loadSavedQueries(db.pool, {
  projectId, queryIds: [Q1, Q2, L], slugs: ['errors', 'legacy'], variantSlugs: ['main', 'second', legacyVariantSlug(LV)], revisionSlugs: ['r0', 'r1', 'r1b', 'l1'],
});
const normal = (s: SavedQueryState, projectId: string) => ({
  queries: [...s.queries].filter((q) => q.projectId === projectId).sort((a, b) => a.id.localeCompare(b.id)),
  slugs: [s.querySlugs, s.variantSlugs, s.revisionSlugs].map((xs) => xs.filter((r) => r.projectId === projectId).map((r) => r.slug).sort()),
});

describe('saved-query projection (Postgres)', () => {
  it('stores what evolve says, fact by fact; a rejected event changes nothing', async () => {
    const data = JSON.stringify({ filtering: { operator: 'and', conditions: [] }, formatting: { focus: 'span' } });
    const history: Array<[SavedQueryEvent, string]> = [
      [artifact(P, Q1, 'errors'), 'accepted'],
      [variant(P, Q1, V1, 'main'), 'accepted'],
      [revision(P, 0, 'r0'), 'accepted'],
      [revision(P, 1, 'r1', data), 'accepted'],
      [revision(P, 1, 'r1b'), 'query_version_conflict'],
      [artifact(P, Q2, 'errors'), 'query_slug_exists'],
      [variant(P, Q1, V2, 'main'), 'query_variant_slug_exists'],
      [revision(P2, 2, 'x'), 'query_variant_not_found'],
      [artifact(P2, Q2, 'errors'), 'accepted'],
      [legacyCreated, 'accepted'],
      [{ type: 'accounts.query.archive.set', ...envelope(P), payload: { query_id: Q1, target: 'query', target_id: Q1, archived: true } }, 'accepted'],
    ];
    let expected = savedQuery.initial;
    for (const [e, want] of history) {
      const decision = savedQuery.decide(e, await loadSavedQueryState(db.pool, e));
      expect(decision.status === 'accepted' ? 'accepted' : decision.code).toBe(want);
      const [outcome] = await db.apply(e as AccountEvent);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      if (decision.status === 'accepted') expected = savedQuery.evolve(expected, e);
      for (const project of [P, P2]) expect(normal(await loadAll(project), project)).toEqual(normal(expected, project));
    }
  });

  it('reads views with string versions and nulls omitted, lists without archived, logs and resolves refs', async () => {
    const simple = await readSimpleQuery(db.pool, P, Q1);
    expect(simple).toMatchObject({ id: Q1, slug: 'errors', name: 'Errors', tags: { team: 'a' }, data: { filtering: { operator: 'and', conditions: [] } } });
    expect(simple?.deleted_at).toBeDefined();
    expect((await listSimpleQueries(db.pool, P, {})).map((q) => q.id)).toEqual([L]);
    const log = await logQueryRevisions(db.pool, P, { variantId: V1 });
    expect(log.map((r) => r.version)).toEqual(['1', '0']);
    const latest = await resolveQueryRevision(db.pool, P, { query: { slug: 'errors' } });
    expect(latest).toMatchObject({ version: '1', variant_slug: 'main', artifact_slug: 'errors', message: 'v1' });
    expect(await resolveQueryRevision(db.pool, P2, { query: { id: Q1 } })).toBeUndefined();
    expect((await resolveQueryRevision(db.pool, P, { variant: { id: V1 }, revision: { version: '0' } }))?.data).toBeUndefined();
    // The first model's revision: version "0", content folded into data, variant slug its hex id.
    const old = await resolveQueryRevision(db.pool, P, { query: { id: L } });
    expect(old).toMatchObject({ version: '0', variant_slug: legacyVariantSlug(LV), data: { filtering: { conditions: [] }, formatting: { focus: 'span' } } });
    expect(await readQueryRevision(db.pool, P2, old!.id)).toBeUndefined();
  });

  it('given a revision, when its header is edited and it is archived alone, then only its header and its deleted_at change; an unknown revision is refused', async () => {
    const [q, v, r0, r1] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const add = (id: string, version: number): SavedQueryEvent => ({
      type: 'accounts.query.revision.added', ...envelope(P),
      payload: { query_id: q, variant_id: v, revision_id: id, slug: `e${id.slice(0, 8)}`, version, header: header(), data_json: '{"filtering":{"conditions":[]}}', message: '' },
    });
    const steps: Array<[SavedQueryEvent, string]> = [
      [artifact(P, q, `edits-${q.slice(0, 8)}`), 'accepted'],
      [variant(P, q, v, `ev-${v.slice(0, 8)}`), 'accepted'],
      [add(r0, 0), 'accepted'],
      [add(r1, 1), 'accepted'],
      [{ type: 'accounts.query.revision.edited', ...envelope(P), payload: { query_id: q, variant_id: v, revision_id: r1, header: header('Renamed') } }, 'accepted'],
      [{ type: 'accounts.query.archive.set', ...envelope(P), payload: { query_id: q, target: 'revision', target_id: r0, archived: true } }, 'accepted'],
      [{ type: 'accounts.query.revision.edited', ...envelope(P), payload: { query_id: q, variant_id: v, revision_id: randomUUID(), header: header('x') } }, 'query_revision_not_found'],
      [{ type: 'accounts.query.archive.set', ...envelope(P2), payload: { query_id: q, target: 'revision', target_id: r1, archived: true } }, 'query_revision_not_found'],
    ];
    for (const [e, want] of steps) {
      const decision = savedQuery.decide(e, await loadSavedQueryState(db.pool, e));
      expect(decision.status === 'accepted' ? 'accepted' : decision.code).toBe(want);
      const [outcome] = await db.apply(e as AccountEvent);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
    }
    const edited = await readQueryRevision(db.pool, P, r1);
    expect(edited).toMatchObject({ name: 'Renamed', tags: { team: 'a' }, version: '1', data: { filtering: { conditions: [] } } });
    expect(edited?.deleted_at).toBeUndefined();
    expect((await readQueryRevision(db.pool, P, r0))?.deleted_at).toBeDefined();
  });
});
