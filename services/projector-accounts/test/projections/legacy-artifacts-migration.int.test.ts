// Migration 0024 against the real Postgres: the first model's applications and testsets, as 0015's
// tables held them (written here the way their projection wrote them before 0024), are carried into
// the artifact tables exactly as a replay of the same events projects them now — events that
// projection refused (a taken slug) refused again. Upgrading a database and rebuilding it from the
// log give the same rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { legacyTestsetV0, type AccountEvent } from '@llm/account-model';
import { uuidv7 } from '@llm/events';
import { openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let upgraded: ProjectionDb;
let replayed: ProjectionDb;
beforeAll(async () => {
  upgraded = await openProjectionDb({ migratedUpTo: '0023-saved-queries-as-artifacts.sql' });
  replayed = await openProjectionDb();
});
afterAll(async () => { await upgraded?.close(); await replayed?.close(); });

const [P, A, V1, V2, R0, R1, R2, R3, TS, TV, TR] = [randomUUID(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7()];
const [B, BV, B0, B1] = [uuidv7(), uuidv7(), uuidv7(), uuidv7()];
const ROWS = [uuidv7(), uuidv7(), uuidv7()];
const T = (n: number): number => Date.parse(`2031-06-0${n}T10:00:00.123Z`) * 1000;
const iso = (n: number): string => new Date(T(n) / 1000).toISOString();
const event = (type: AccountEvent['type'], payload: unknown, n: number, projectId: string = P): AccountEvent =>
  ({ type, payload, projectId, organizationId: '', actorId: 'u1', expectedVersion: 0, timeUs: T(n) }) as AccountEvent;
const provisioned = event('accounts.account.provisioned', {
  user: { id: randomUUID(), email: `l-${P.slice(0, 8)}@x.org`, name: '', username: `l${P.slice(0, 8)}` }, organization: { id: randomUUID(), name: 'O', slug: `o-${P.slice(0, 8)}` },
  workspace: { id: randomUUID(), name: 'W', slug: 'w' }, project: { id: P, name: 'P', slug: 'p' }, api_key: null,
}, 1, '');
const app = { application_id: A, project_id: P, slug: 'app', name: 'App', description: 'd', tags_json: '{"t":1}', meta_json: '{"m":2}', flags_json: '{"x":true}', data_json: '{"uri":"u","n":12345678901234567890}' };

// The history, as events (the log): the refused ones are refused again.
const events: AccountEvent[] = [
  event('accounts.application.created', { application: app, variant_id: V1, variant_slug: 'abcdefabcdef', revision0_id: R0, revision_id: R1 }, 2),
  event('accounts.application.created', { application: { ...app, application_id: uuidv7() }, variant_id: uuidv7(), variant_slug: 'x', revision0_id: uuidv7(), revision_id: uuidv7() }, 3),
  event('accounts.application.variant_created', { variant_id: V2, application_id: A, project_id: P, slug: 'b', name: 'B', flags_json: '', tags_json: '{"k":"v"}' }, 3),
  event('accounts.application.variant_created', { variant_id: uuidv7(), application_id: A, project_id: P, slug: 'b', name: 'B2', flags_json: '', tags_json: '' }, 3),
  event('accounts.application.revision_committed', { revision_id: R2, variant_id: V2, application_id: A, project_id: P, slug: '', message: 'm', data_json: '', version: 0 }, 4),
  event('accounts.application.revision_committed', { revision_id: R3, variant_id: V2, application_id: A, project_id: P, slug: 's1', message: '', data_json: '{"uri":"v"}', version: 1 }, 5),
  event('accounts.testset.created', {
    testset_id: TS, project_id: P, slug: 'ts', name: 'T', description: '', tags_json: '', meta_json: '{"a":1}', variant_id: TV, revision_id: TR,
    testcases: ROWS.map((id, i) => ({ testcase_id: id, data_json: i === 2 ? '{"q":"1"}' : `{"q":"${i}"}` })),
  }, 6),
  event('accounts.testset.created', {
    testset_id: uuidv7(), project_id: P, slug: 'ts', name: 'T2', description: '', tags_json: '', meta_json: '', variant_id: uuidv7(), revision_id: uuidv7(), testcases: [],
  }, 7),
  event('accounts.testset.created', { testset_id: uuidv7(), project_id: P, slug: 'empty', name: '', description: '', tags_json: '', meta_json: '', variant_id: uuidv7(), revision_id: uuidv7(), testcases: [] }, 8),
  // An empty slug and name, flags that are no object; the same empty slug again is taken.
  event('accounts.application.created', { application: { ...app, application_id: B, slug: '', name: '', flags_json: '[1]', data_json: '' }, variant_id: BV, variant_slug: '', revision0_id: B0, revision_id: B1 }, 8),
  event('accounts.application.created', { application: { ...app, application_id: uuidv7(), slug: '' }, variant_id: uuidv7(), variant_slug: '', revision0_id: uuidv7(), revision_id: uuidv7() }, 9),
  // A row under an id another testset's row has: not storable (the first model's key), nothing stored.
  event('accounts.testset.created', { testset_id: uuidv7(), project_id: P, slug: 'dup', name: '', description: '', tags_json: '', meta_json: '', variant_id: uuidv7(), revision_id: uuidv7(), testcases: [{ testcase_id: ROWS[0], data_json: '{}' }] }, 9),
];
const REFUSED: Record<number, string> = { 1: 'application_slug_taken', 3: 'application_variant_slug_taken', 7: 'testset_slug_taken', 10: 'application_slug_taken', 11: 'unstorable' };

// … and as the rows the projection before 0024 made of the accepted ones (0015).
async function writeOldRows(db: ProjectionDb): Promise<void> {
  const q = (text: string, values: unknown[]): Promise<unknown> => db.pool.query(text, values);
  await q(`INSERT INTO applications (id, project_id, slug, name, description, tags, meta, flags, data, created_at, created_by_id)
           VALUES ($1,$2,'app','App','d','{"t":1}','{"m":2}','{"x":true}',$3::jsonb,$4,'u1')`, [A, P, app.data_json, iso(2)]);
  await q(`INSERT INTO application_variants (id, project_id, application_id, slug, name, flags, revision, created_at, created_by_id)
           VALUES ($1,$2,$3,'abcdefabcdef','App','{"x":true}',1,$4,'u1')`, [V1, P, A, iso(2)]);
  await q(`INSERT INTO application_revisions (id, project_id, application_id, variant_id, slug, version, message, data, created_at, created_by_id)
           VALUES ($1,$3,$4,$5,NULL,0,NULL,NULL,$7,'u1'), ($2,$3,$4,$5,NULL,1,NULL,$6::jsonb,$7,'u1')`, [R0, R1, P, A, V1, app.data_json, iso(2)]);
  await q(`INSERT INTO application_variants (id, project_id, application_id, slug, name, flags, tags, revision, created_at, created_by_id)
           VALUES ($1,$2,$3,'b','B',NULL,'{"k":"v"}',1,$4,'u1')`, [V2, P, A, iso(3)]);
  await q(`INSERT INTO application_revisions (id, project_id, application_id, variant_id, slug, version, message, data, created_at, created_by_id)
           VALUES ($1,$2,$3,$4,NULL,0,'m',NULL,$5,'u1'), ($6,$2,$3,$4,'s1',1,NULL,'{"uri":"v"}',$7,'u1')`, [R2, P, A, V2, iso(4), R3, iso(5)]);
  await q(`INSERT INTO testsets (id, project_id, slug, name, description, tags, meta, variant_id, revision_id, created_at, created_by_id)
           VALUES ($1,$2,'ts','T',NULL,NULL,'{"a":1}',$3,$4,$5,'u1')`, [TS, P, TV, TR, iso(6)]);
  await q(`INSERT INTO testcases (id, testset_id, position, data) SELECT t.id, $1, t.position - 1, t.data::jsonb FROM unnest($2::uuid[], $3::text[]) WITH ORDINALITY AS t(id, data, position)`,
    [TS, ROWS, ['{"q":"0"}', '{"q":"1"}', '{"q":"1"}']]);
  const empty = events[8]!.payload as { testset_id: string; variant_id: string; revision_id: string };
  await q(`INSERT INTO testsets (id, project_id, slug, name, variant_id, revision_id, created_at, created_by_id) VALUES ($1,$2,'empty',NULL,$3,$4,$5,'u1')`,
    [empty.testset_id, P, empty.variant_id, empty.revision_id, iso(8)]);
  await q(`INSERT INTO applications (id, project_id, slug, name, description, tags, meta, flags, data, created_at, created_by_id)
           VALUES ($1,$2,'',NULL,'d','{"t":1}','{"m":2}','[1]',NULL,$3,'u1')`, [B, P, iso(8)]);
  await q(`INSERT INTO application_variants (id, project_id, application_id, slug, name, flags, revision, created_at, created_by_id)
           VALUES ($1,$2,$3,'','','[1]',1,$4,'u1')`, [BV, P, B, iso(8)]);
  await q(`INSERT INTO application_revisions (id, project_id, application_id, variant_id, slug, version, message, data, created_at, created_by_id)
           VALUES ($1,$3,$4,$5,NULL,0,NULL,NULL,$6,'u1'), ($2,$3,$4,$5,NULL,1,NULL,NULL,$6,'u1')`, [B0, B1, P, B, BV, iso(8)]);
}

const rows = async (db: ProjectionDb, table: string): Promise<unknown[]> =>
  (await db.pool.query(`SELECT * FROM ${table} WHERE project_id = $1 ORDER BY id`, [P])).rows;

describe('migration 0024: the first model\'s applications and testsets into the artifact tables (Postgres)', () => {
  it('given their rows, when 0024 runs, then the artifact tables hold what a replay of their events projects', async () => {
    expect(await upgraded.apply(provisioned)).toEqual([{ status: 'applied' }]);
    await writeOldRows(upgraded);
    expect(await upgraded.migrate()).toEqual(['0024-legacy-applications-and-testsets-as-artifacts.sql']);

    const outcomes = await replayed.apply(provisioned, ...events);
    expect(outcomes.slice(1).map((o, i) => (o.status === 'applied' ? 'applied' : `${i}:${o.code}`)))
      .toEqual(events.map((_, i) => (REFUSED[i] ? `${i}:${REFUSED[i]}` : 'applied')));
    for (const table of ['artifacts', 'artifact_variants', 'artifact_revisions', 'artifact_testcases']) {
      const migrated = await rows(upgraded, table);
      expect(migrated.length, table).toBeGreaterThan(0);
      expect(migrated, table).toEqual(await rows(replayed, table));
    }
    for (const old of ['applications', 'application_variants', 'application_revisions', 'testsets', 'testcases']) {
      expect((await upgraded.pool.query('SELECT to_regclass($1) AS t', [old])).rows[0].t, old).toBeNull();
    }
    // What the rules derive: an application flagged as one, suffixed slugs, the testset's rows in order, its revision 0.
    const hex = (id: string): string => id.replace(/-/g, '');
    const { rows: [a] } = await replayed.pool.query('SELECT slug, flags FROM artifacts WHERE id = $1', [A]);
    expect(a).toEqual({ slug: `app_${hex(A)}`, flags: { x: true, is_application: true } });
    const { rows: [b] } = await replayed.pool.query('SELECT slug, name, flags FROM artifacts WHERE id = $1', [B]);
    expect(b).toEqual({ slug: `_${hex(B)}`, name: null, flags: { is_application: true } });
    const { rows: revs } = await replayed.pool.query('SELECT id::text AS id, version, slug, data FROM artifact_revisions WHERE artifact_id = $1 ORDER BY version', [TS]);
    expect(revs).toEqual([
      { id: legacyTestsetV0(TR), version: 0, slug: hex(legacyTestsetV0(TR)), data: null },
      { id: TR, version: 1, slug: hex(TR), data: { testcase_ids: ROWS } },
    ]);
    const { rows: [digits] } = await replayed.pool.query("SELECT data->>'n' AS n FROM artifact_revisions WHERE id = $1", [R1]);
    expect(digits.n).toBe('12345678901234567890');
  });
});
