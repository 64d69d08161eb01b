// The project tombstones of migration 0017 on the real Postgres: every path that removes a project
// from the read model (an organization deleted, a user deleted with the organizations they own)
// leaves one tombstone per project, stamped with the deleting event's time (so a replay writes the
// same rows); a live project never gets one, and emptying the tables for a rebuild (TRUNCATE) adds
// none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const hex = () => randomBytes(4).toString('hex');
const tombstones = async (): Promise<Array<{ project_id: string; organization_id: string; deleted_at: Date }>> =>
  (await db.pool.query('SELECT project_id, organization_id, deleted_at FROM project_tombstones ORDER BY deleted_at, project_id')).rows;

/** A provisioned user with a home organization, plus one more organization they own. */
async function owner() {
  const [user, home, homeProject, org, project] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const h = hex();
  expect(await db.apply(
    ev('accounts.account.provisioned', {
      user: { id: user, email: `u-${h}@x.org`, name: '', username: h }, organization: { id: home, name: 'Home', slug: `home-${h}` },
      workspace: { id: randomUUID(), name: 'W', slug: 'w' }, project: { id: homeProject, name: 'P', slug: 'p' }, api_key: null,
    }),
    ev('accounts.organization.created', {
      organization: { id: org, name: 'Research', slug: `research-${h}`, plan: '' }, owner_id: user, description: '',
      workspace: { id: randomUUID(), name: 'Default', slug: 'default' }, project: { id: project, name: 'Default', slug: 'default' },
    }),
  )).toEqual([{ status: 'applied' }, { status: 'applied' }]);
  return { user, email: `u-${h}@x.org`, home, homeProject, org, project };
}

describe('project tombstones (Postgres)', () => {
  it('given an organization, when it is deleted, then its project is tombstoned at the event time and the other projects are not', async () => {
    const a = await owner();
    const timeUs = Date.parse('2031-02-03T04:05:06.789Z') * 1000;
    expect(await db.apply(ev('accounts.organization.deleted', { organization_id: a.org, actor_id: a.user }, { timeUs }))).toEqual([{ status: 'applied' }]);
    const rows = (await tombstones()).filter((t) => ([a.project, a.homeProject] as string[]).includes(t.project_id));
    expect(rows).toEqual([{ project_id: a.project, organization_id: a.org, deleted_at: new Date('2031-02-03T04:05:06.789Z') }]);
  });

  it('given a user owning two organizations, when the user is deleted, then both organizations\' projects are tombstoned', async () => {
    const b = await owner();
    const timeUs = Date.parse('2032-01-01T00:00:00Z') * 1000;
    expect(await db.apply(ev('accounts.user.deleted', { user_id: b.user, email: b.email }, { timeUs }))).toEqual([{ status: 'applied' }]);
    const rows = (await tombstones()).filter((t) => ([b.project, b.homeProject] as string[]).includes(t.project_id));
    expect(rows.map((r) => [r.project_id, r.organization_id]).sort()).toEqual([[b.homeProject, b.home], [b.project, b.org]].sort());
    expect(rows.every((r) => r.deleted_at.toISOString() === '2032-01-01T00:00:00.000Z')).toBe(true);
  });

  it('given live projects, when the read model is emptied with TRUNCATE (a rebuild), then no tombstone is written', async () => {
    const c = await owner();
    const before = (await tombstones()).length;
    await db.pool.query('TRUNCATE projects CASCADE');
    expect((await tombstones()).length).toBe(before);
    expect((await tombstones()).some((t) => ([c.project, c.homeProject] as string[]).includes(t.project_id))).toBe(false);
  });

  it('given a tombstone, when the same project id is deleted again, then the first deletion time stays', async () => {
    const d = await owner();
    expect(await db.apply(ev('accounts.organization.deleted', { organization_id: d.org, actor_id: d.user }, { timeUs: Date.parse('2033-01-01T00:00:00Z') * 1000 }))).toEqual([{ status: 'applied' }]);
    // Outside the projector (no event time): the trigger falls back to now(), and the conflict keeps the first row.
    await db.pool.query(`INSERT INTO projects (id, workspace_id, organization_id, name, slug, created_at)
      SELECT $1, w.id, w.organization_id, 'again', 'again', now() FROM workspaces w WHERE w.organization_id = $2 LIMIT 1`, [d.project, d.home]);
    await db.pool.query('DELETE FROM projects WHERE id = $1', [d.project]);
    const row = (await tombstones()).find((t) => t.project_id === d.project);
    expect(row).toEqual({ project_id: d.project, organization_id: d.org, deleted_at: new Date('2033-01-01T00:00:00Z') });
  });
});
