// The saved-query events' projection (into the artifact tables, family `query`) against the real Postgres: after each fact, the state the loader
// returns for it (the query with its variants' latest versions, the slugs taken, the revisions
// named) is written out; rejections (a lost version race among them) leave the rows alone; the
// reader's views, lists, log and ref resolution show what was stored —
// events of the first model included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type AccountEvent, legacyVariantSlug, listSimpleQueries, logQueryRevisions, readQueryRevision, readSimpleQuery, resolveQueryRevision, type SavedQueryEvent, type ArtifactState, type ArtifactVariantState } from '@llm/account-model';
import type { QueryHeader } from '@llm/events';
import { openProjectionDb, type ProjectionDb, type Step } from '../support/projection-db.ts';

let db: ProjectionDb;
/** A user with a home organization whose project is `projectId` (artifacts belong to a project that exists). */
const provisioned = (projectId: string): AccountEvent => {
  const h = projectId.slice(0, 8);
  return {
    type: 'accounts.account.provisioned', projectId: '', organizationId: '', actorId: '', expectedVersion: 0, timeUs: Date.now() * 1000,
    payload: {
      user: { id: randomUUID(), email: `u-${h}@x.org`, name: '', username: `u${h}` }, organization: { id: randomUUID(), name: 'Home', slug: `home-${h}` },
      workspace: { id: randomUUID(), name: 'W', slug: 'w' }, project: { id: projectId, name: 'P', slug: 'p' }, api_key: null,
    },
  } as AccountEvent;
};
beforeAll(async () => {
  db = await openProjectionDb();
  expect(await db.apply(provisioned(P), provisioned(P2))).toEqual([{ status: 'applied' }, { status: 'applied' }]);
});
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

const at = (projectId: string, slug: string) => ({ projectId, slug });
interface Slug { projectId: string; slug: string }
interface Given {
  queries?: Array<{ id: string; projectId: string; slug: string; variants: ArtifactVariantState[] }>;
  querySlugs?: Slug[]; variantSlugs?: Slug[]; revisionSlugs?: Slug[]; revisions?: ArtifactState['revisions'];
}
/** The artifact state the loader returns (saved queries are the `query` family): what is not named is empty. */
const state = (s: Given): ArtifactState => ({
  projectExists: true,
  artifacts: (s.queries ?? []).map(({ slug: _slug, ...q }) => ({ ...q, family: 'query', variants: q.variants })),
  takenSlugs: { artifact: (s.querySlugs ?? []).map((x) => x.slug), variant: (s.variantSlugs ?? []).map((x) => x.slug), revision: (s.revisionSlugs ?? []).map((x) => x.slug) },
  revisions: s.revisions ?? [], storedTestcases: [],
});

describe('saved-query projection (Postgres)', () => {
  it('given a project, when a query, its variant and revisions are created, then the loader returns each with its latest version; refused events change nothing', async () => {
    const data = JSON.stringify({ filtering: { operator: 'and', conditions: [] }, formatting: { focus: 'span' } });
    const q1 = (latestVersion: number | null) => ({ id: Q1, projectId: P, slug: 'errors', variants: latestVersion === null ? [] : [{ id: V1, slug: 'main', latestVersion }] });
    // Each event, its verdict, and the state the loader returns for it afterwards: the query it names
    // (by id, in any project) with its variants, the project's slugs it would take, the revisions it names.
    const steps: Array<[SavedQueryEvent, string, ArtifactState]> = [
      [artifact(P, Q1, 'errors'), 'ok', state({ queries: [q1(null)], querySlugs: [at(P, 'errors')] })],
      // A variant without revisions: latest version -1 (its first revision is 0).
      [variant(P, Q1, V1, 'main'), 'ok', state({ queries: [q1(-1)], variantSlugs: [at(P, 'main')] })],
      [revision(P, 0, 'r0'), 'ok', state({ queries: [q1(0)], revisionSlugs: [at(P, 'r0')] })],
      [revision(P, 1, 'r1', data), 'ok', state({ queries: [q1(1)], revisionSlugs: [at(P, 'r1')] })],
      [revision(P, 1, 'r1b'), 'query_version_conflict', state({ queries: [q1(1)] })],
      [artifact(P, Q2, 'errors'), 'query_slug_exists', state({ querySlugs: [at(P, 'errors')] })],
      [variant(P, Q1, V2, 'main'), 'query_variant_slug_exists', state({ queries: [q1(1)], variantSlugs: [at(P, 'main')] })],
      // Q1 is found by id, but in P, not P2.
      [revision(P2, 2, 'x'), 'query_variant_not_found', state({ queries: [q1(1)] })],
      // Another project takes the same slug.
      [artifact(P2, Q2, 'errors'), 'ok', state({ queries: [{ id: Q2, projectId: P2, slug: 'errors', variants: [] }], querySlugs: [at(P2, 'errors')] })],
      // The first model: one variant, its slug its id in hex (which must be free), its first revision numbered 0.
      [legacyCreated, 'ok', state({
        queries: [{ id: L, projectId: P, slug: 'legacy', variants: [{ id: LV, slug: legacyVariantSlug(LV), latestVersion: 0 }] }], querySlugs: [at(P, 'legacy')], variantSlugs: [at(P, legacyVariantSlug(LV))], revisionSlugs: [at(P, 'l1')],
      })],
      // Archived, the query keeps its slugs and versions.
      [{ type: 'accounts.query.archive.set', ...envelope(P), payload: { query_id: Q1, target: 'query', target_id: Q1, archived: true } }, 'ok', state({ queries: [q1(1)] })],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) expect(await db.step('savedQuery', e as AccountEvent), `step ${i}`).toEqual({ verdict, after });
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
    const [slug, vslug] = [`edits-${q.slice(0, 8)}`, `ev-${v.slice(0, 8)}`];
    const query = (latestVersion: number | null) => ({ id: q, projectId: P, slug, variants: latestVersion === null ? [] : [{ id: v, slug: vslug, latestVersion }] });
    const steps: Array<[SavedQueryEvent, string, ArtifactState]> = [
      [artifact(P, q, slug), 'ok', state({ queries: [query(null)], querySlugs: [at(P, slug)] })],
      [variant(P, q, v, vslug), 'ok', state({ queries: [query(-1)], variantSlugs: [at(P, vslug)] })],
      [add(r0, 0), 'ok', state({ queries: [query(0)], revisionSlugs: [at(P, `e${r0.slice(0, 8)}`)] })],
      [add(r1, 1), 'ok', state({ queries: [query(1)], revisionSlugs: [at(P, `e${r1.slice(0, 8)}`)] })],
      // Header edits and archival change nothing a decision looks at: the revision is still there, the version stays.
      [{ type: 'accounts.query.revision.edited', ...envelope(P), payload: { query_id: q, variant_id: v, revision_id: r1, header: header('Renamed') } }, 'ok',
        state({ queries: [query(1)], revisions: [{ id: r1, variantId: v }] })],
      [{ type: 'accounts.query.archive.set', ...envelope(P), payload: { query_id: q, target: 'revision', target_id: r0, archived: true } }, 'ok',
        state({ queries: [query(1)], revisions: [{ id: r0, variantId: v }] })],
      [{ type: 'accounts.query.revision.edited', ...envelope(P), payload: { query_id: q, variant_id: v, revision_id: randomUUID(), header: header('x') } }, 'query_revision_not_found',
        state({ queries: [query(1)] })],
      [{ type: 'accounts.query.archive.set', ...envelope(P2), payload: { query_id: q, target: 'revision', target_id: r1, archived: true } }, 'query_revision_not_found',
        state({ queries: [query(1)], revisions: [{ id: r1, variantId: v }] })],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) expect(await db.step('savedQuery', e as AccountEvent), `step ${i}`).toEqual({ verdict, after });
    const edited = await readQueryRevision(db.pool, P, r1);
    expect(edited).toMatchObject({ name: 'Renamed', tags: { team: 'a' }, version: '1', data: { filtering: { conditions: [] } } });
    expect(edited?.deleted_at).toBeUndefined();
    expect((await readQueryRevision(db.pool, P, r0))?.deleted_at).toBeDefined();
  });

  it('given queries, when one is edited and forked with copies of revisions, and a first-model query gets a commit, then the loader returns each variant\'s latest version', async () => {
    const [q, fv, fr0, fr1, lq, lv] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [slug, fslug, s0, s1, lslug] = [`fork-${q.slice(0, 8)}`, `fv-${fv.slice(0, 8)}`, `f0-${fr0.slice(0, 8)}`, `f1-${fr1.slice(0, 8)}`, `old-${lq.slice(0, 8)}`];
    const copy = (id: string, revisionSlug: string) => ({ revision_id: id, slug: revisionSlug, header: header(), data_json: '', message: '' });
    const query = (variants: ArtifactVariantState[]) => ({ id: q, projectId: P, slug, variants });
    const fork = (latestVersion: number) => [{ id: fv, slug: fslug, latestVersion }];
    const first = { id: randomUUID(), slug: `o1-${lq.slice(0, 8)}`, version: 1, filtering_json: '{"conditions":[]}', windowing_json: '', focus: 'span', format: '', message: '' };
    const commit = (version: number, revisionSlug: string): SavedQueryEvent => ({
      type: 'accounts.query.revision.committed', ...envelope(P), payload: { query_id: lq, variant_id: lv, revision: { ...first, id: randomUUID(), slug: revisionSlug, version } },
    });
    const legacy = (latestVersion: number) => ({ id: lq, projectId: P, slug: lslug, variants: [{ id: lv, slug: legacyVariantSlug(lv), latestVersion }] });
    const steps: Array<[SavedQueryEvent, string, ArtifactState]> = [
      [artifact(P, q, slug), 'ok', state({ queries: [query([])], querySlugs: [at(P, slug)] })],
      [{ type: 'accounts.query.artifact.edited', ...envelope(P), payload: { query_id: q, header: header('Renamed'), folder_id: '' } }, 'ok', state({ queries: [query([])] })],
      // A fork starts with its copies (numbered 0, 1): its latest version is its last copy's.
      [{ type: 'accounts.query.variant.created', ...envelope(P), payload: { query_id: q, variant_id: fv, slug: fslug, header: header(), revisions: [copy(fr0, s0), copy(fr1, s1)] } }, 'ok',
        state({ queries: [query(fork(1))], variantSlugs: [at(P, fslug)], revisionSlugs: [at(P, s0), at(P, s1)] })],
      [{ type: 'accounts.query.variant.edited', ...envelope(P), payload: { query_id: q, variant_id: fv, header: header('Fork') } }, 'ok', state({ queries: [query(fork(1))] })],
      [{ type: 'accounts.query.variant.edited', ...envelope(P), payload: { query_id: q, variant_id: randomUUID(), header: header('x') } }, 'query_variant_not_found', state({ queries: [query(fork(1))] })],
      // The first model numbers from 1: its revision n is the variant's version n - 1.
      [{ type: 'accounts.query.created', ...envelope(P), payload: { query_id: lq, slug: lslug, name: 'Old', description: '', variant_id: lv, variant_slug: 'default', revision: first } }, 'ok',
        state({ queries: [legacy(0)], querySlugs: [at(P, lslug)], variantSlugs: [at(P, legacyVariantSlug(lv))], revisionSlugs: [at(P, first.slug)] })],
      [commit(2, `o2-${lq.slice(0, 8)}`), 'ok', state({ queries: [legacy(1)], revisionSlugs: [at(P, `o2-${lq.slice(0, 8)}`)] })],
      [commit(2, `o3-${lq.slice(0, 8)}`), 'query_version_conflict', state({ queries: [legacy(1)] })],
    ];
    const sortedSlugs = ({ verdict, after }: Step<'savedQuery'>) => ({ verdict, after: { ...after, takenSlugs: { ...after.takenSlugs, revision: [...after.takenSlugs.revision].sort() } } });
    for (const [i, [e, verdict, after]] of steps.entries()) expect(sortedSlugs(await db.step('savedQuery', e as AccountEvent)), `step ${i}`).toEqual({ verdict, after });
  });
});
