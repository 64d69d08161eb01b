// Migration 0023 against the real Postgres: saved-query rows as the saved_query* tables held them
// (written here the way their projection wrote them before 0023, for both models) are carried into
// the artifact tables exactly as a replay of the same events projects them now. Upgrading a
// database and rebuilding it from the log give the same rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { legacyQueryData, type AccountEvent } from '@llm/account-model';
import type { QueryHeader } from '@llm/events';
import { openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let upgraded: ProjectionDb;
let replayed: ProjectionDb;
beforeAll(async () => {
  upgraded = await openProjectionDb({ migratedUpTo: '0022-artifact-environments.sql' });
  replayed = await openProjectionDb();
});
afterAll(async () => { await upgraded?.close(); await replayed?.close(); });

const id = (): string => randomUUID();
const [P, GONE, Q, V, R0, R1, L, LV, L1, L2, F] = [id(), id(), id(), id(), id(), id(), id(), id(), id(), id(), id()];
const T = (n: number): number => Date.parse(`2031-05-0${n}T10:00:00.123Z`) * 1000;
const iso = (n: number): string => new Date(T(n) / 1000).toISOString();
const event = (type: AccountEvent['type'], payload: unknown, n: number, projectId: string = P): AccountEvent =>
  ({ type, payload, projectId, organizationId: '', actorId: 'u1', expectedVersion: 0, timeUs: T(n) }) as AccountEvent;
const header = (name: string, tags = ''): QueryHeader => ({ name, description: '', tags_json: tags, meta_json: '', flags_json: '' });
const provisioned = event('accounts.account.provisioned', {
  user: { id: randomUUID(), email: `m-${P.slice(0, 8)}@x.org`, name: '', username: `m${P.slice(0, 8)}` }, organization: { id: randomUUID(), name: 'O', slug: `o-${P.slice(0, 8)}` },
  workspace: { id: randomUUID(), name: 'W', slug: 'w' }, project: { id: P, name: 'P', slug: 'p' }, api_key: null,
}, 1, '');
const first = { filtering_json: '{"operator":"and","conditions":[{"field":"status_code","value":null}]}', windowing_json: '{"oldest":"2031-01-01T00:00:00Z"}', focus: 'span', format: '' };

// The history, as events (the log) …
const events: AccountEvent[] = [
  event('accounts.query.artifact.created', { query_id: Q, slug: 'mig', header: header('Mig', '{"team":"a"}'), folder_id: F }, 2),
  event('accounts.query.variant.created', { query_id: Q, variant_id: V, slug: 'main', header: header('') }, 3),
  event('accounts.query.revision.added', { query_id: Q, variant_id: V, revision_id: R0, slug: 'r0', version: 0, header: header(''), data_json: '{"filtering":{"conditions":[]}}', message: 'first' }, 4),
  event('accounts.query.revision.added', { query_id: Q, variant_id: V, revision_id: R1, slug: 'r1', version: 1, header: header(''), data_json: '', message: '' }, 5),
  event('accounts.query.revision.edited', { query_id: Q, variant_id: V, revision_id: R0, header: header('Renamed') }, 6),
  event('accounts.query.created', { query_id: L, slug: 'old', name: 'Old', description: '', variant_id: LV, variant_slug: 'default', revision: { id: L1, slug: 'o1', version: 1, ...first, message: '' } }, 7),
  event('accounts.query.revision.committed', { query_id: L, variant_id: LV, revision: { id: L2, slug: 'o2', version: 2, filtering_json: '', windowing_json: '', focus: '', format: '', message: 'again' } }, 8),
  event('accounts.query.archive.set', { query_id: Q, target: 'variant', target_id: V, archived: true }, 9),
];

// … and as the saved_query* rows the projection before 0023 made of them (0002, 0013).
async function writeOldRows(db: ProjectionDb): Promise<void> {
  const q = (text: string, values: unknown[]): Promise<unknown> => db.pool.query(text, values);
  await q(`INSERT INTO saved_queries (id, project_id, slug, name, description, tags, folder_id, created_at, created_by_id) VALUES ($1,$2,'mig','Mig',NULL,'{"team":"a"}',$3,$4,'u1')`, [Q, P, F, iso(2)]);
  await q(`INSERT INTO saved_query_variants (id, query_id, project_id, slug, is_default, latest_version, created_at, created_by_id, deleted_at, deleted_by_id)
           VALUES ($1,$2,$3,'main',true,1,$4,'u1',$5,'u1')`, [V, Q, P, iso(3), iso(9)]);
  await q(`INSERT INTO saved_query_revisions (id, query_id, variant_id, project_id, slug, version, name, data, message, created_at, created_by_id, updated_at, updated_by_id, deleted_at, deleted_by_id)
           VALUES ($1,$2,$3,$4,'r0',0,'Renamed','{"filtering":{"conditions":[]}}','first',$5,'u1',$6,'u1',$7,'u1')`, [R0, Q, V, P, iso(4), iso(6), iso(9)]);
  await q(`INSERT INTO saved_query_revisions (id, query_id, variant_id, project_id, slug, version, created_at, created_by_id, deleted_at, deleted_by_id)
           VALUES ($1,$2,$3,$4,'r1',1,$5,'u1',$6,'u1')`, [R1, Q, V, P, iso(5), iso(9)]);
  // The first model: a variant without author or header, content in four columns folded into data by 0013's expression.
  await q(`INSERT INTO saved_queries (id, project_id, slug, name, created_at, created_by_id) VALUES ($1,$2,'old','Old',$3,'u1')`, [L, P, iso(7)]);
  await q(`INSERT INTO saved_query_variants (id, query_id, project_id, slug, is_default, latest_version, created_at) VALUES ($1,$2,$3,$4,true,1,$5)`,
    [LV, L, P, LV.replace(/-/g, ''), iso(7)]);
  const fold = `NULLIF(jsonb_strip_nulls(jsonb_build_object('filtering', filtering, 'windowing', windowing,
    'formatting', NULLIF(jsonb_strip_nulls(jsonb_build_object('focus', focus, 'format', format)), '{}'::jsonb))), '{}'::jsonb)`;
  await q(`INSERT INTO saved_query_revisions (id, query_id, variant_id, project_id, slug, version, filtering, windowing, focus, message, created_at, created_by_id)
           VALUES ($1,$2,$3,$4,'o1',0,$5,$6,'span',NULL,$7,'u1')`, [L1, L, LV, P, first.filtering_json, first.windowing_json, iso(7)]);
  await q(`INSERT INTO saved_query_revisions (id, query_id, variant_id, project_id, slug, version, message, created_at, created_by_id)
           VALUES ($1,$2,$3,$4,'o2',1,'again',$5,'u1')`, [L2, L, LV, P, iso(8)]);
  await q(`UPDATE saved_query_revisions SET data = ${fold} WHERE query_id = $1`, [L]);
  // A query of a project that no longer exists: not carried.
  await q(`INSERT INTO saved_queries (id, project_id, slug, created_at) VALUES ($1,$2,'orphan',$3)`, [randomUUID(), GONE, iso(2)]);
}

const rows = async (db: ProjectionDb, table: string): Promise<unknown[]> =>
  (await db.pool.query(`SELECT * FROM ${table} WHERE family = 'query' ORDER BY id`)).rows;

describe('migration 0023: saved queries into the artifact tables (Postgres)', () => {
  it('given rows of both models, when 0023 runs, then the artifact tables hold what a replay of their events projects', async () => {
    expect(await upgraded.apply(provisioned)).toEqual([{ status: 'applied' }]);
    await writeOldRows(upgraded);
    expect((await upgraded.migrate())[0]).toBe('0023-saved-queries-as-artifacts.sql');

    expect(await replayed.apply(provisioned, ...events)).toEqual(events.map(() => ({ status: 'applied' })).concat({ status: 'applied' }));
    for (const table of ['artifacts', 'artifact_variants', 'artifact_revisions']) {
      const migrated = await rows(upgraded, table);
      expect(migrated.length, table).toBeGreaterThan(0);
      expect(migrated, table).toEqual(await rows(replayed, table));
    }
    expect((await upgraded.pool.query("SELECT to_regclass('saved_queries') AS t")).rows[0].t).toBeNull();
  });

  it('given first-model content, when folded as the projection folds it, then it equals the jsonb 0013 folded (nulls stripped at every depth, digits kept)', async () => {
    const cases = [
      first,
      { filtering_json: '', windowing_json: '', focus: '', format: '' },
      { filtering_json: '{"a":null,"b":[null,{"c":null,"d":1}]}', windowing_json: 'null', focus: '', format: 'agenta' },
      { filtering_json: '{"conditions":[{"field":"x","value":12345678901234567890123}]}', windowing_json: '{"rate":1.0}', focus: 'trace', format: 'agenta' },
    ];
    for (const c of cases) {
      const folded = `NULLIF(jsonb_strip_nulls(jsonb_build_object('filtering', NULLIF($1,'')::jsonb, 'windowing', NULLIF($2,'')::jsonb,
           'formatting', NULLIF(jsonb_strip_nulls(jsonb_build_object('focus', NULLIF($3,''), 'format', NULLIF($4,''))), '{}'::jsonb))), '{}'::jsonb)`;
      const ours = "NULLIF(jsonb_strip_nulls($5::jsonb), '{}'::jsonb)";
      const sql = await replayed.pool.query(`SELECT ${folded} AS folded, ${ours} AS ours, (${folded}) IS NOT DISTINCT FROM (${ours}) AS same`,
        [c.filtering_json, c.windowing_json, c.focus, c.format, legacyQueryData(c)]);
      expect(sql.rows[0].ours).toEqual(sql.rows[0].folded);
      expect(sql.rows[0].same, JSON.stringify(c)).toBe(true);
    }
  });
});
