// The organization lifecycle end to end (compat §3.1 and §3.3, without invitations): create (201,
// the caller owns it with a Default workspace and project on the signup plan), list, fetch (members
// only), rename and the empty update, delete (owner only, never the last one; what belongs to it goes
// with it and its secrets' data keys are shredded), and ownership transfer to a member. Tenancy:
// another account can neither see, rename, delete nor transfer an organization it does not own.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let a: TestAccount;
let b: TestAccount;
let db: pg.Pool;
beforeAll(async () => {
  t = await startTestApp();
  [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
});
afterAll(async () => { await db?.end(); await t?.stop(); });

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...headers, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const admin = () => ({ Authorization: `Access ${t.adminToken}` });
const createOrg = async (acc: TestAccount, body: unknown = { name: 'Side project' }): Promise<string> => {
  const r = await call('POST', '/organizations/', acc.auth, body);
  expect(r.status).toBe(201);
  return r.body.id as string;
};
const listed = async (acc: TestAccount): Promise<string[]> => ((await call('GET', '/organizations/', acc.auth)).body as Array<{ id: string }>).map((o) => o.id);

describe('organization lifecycle', () => {
  it('when an organization is created, then it answers 201 {id, name, description}, is listed, and the caller owns it with a Default workspace and project on the signup plan', async () => {
    const r = await call('POST', '/organizations/', a.auth, { name: 'Research' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.any(String), name: 'Research', description: null });
    const list = (await call('GET', '/organizations/', a.auth)).body as Array<Record<string, unknown>>;
    const mine = list.find((o) => o.id === r.body.id)!;
    expect(mine).toMatchObject({ name: 'Research', owner_id: a.userId, members: [], invitations: [], description: null, tags: null });
    expect(mine.workspaces).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain('"None"');
    expect(list.map((o) => o.id)).toContain(a.organizationId);
    const fetched = await call('GET', `/organizations/${r.body.id}`, a.auth);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({ id: r.body.id, owner_id: a.userId, workspaces: mine.workspaces, default_workspace: { id: (mine.workspaces as string[])[0] } });
    const rows = await db.query(`SELECT p.name AS project, w.name AS workspace, p.is_default,
        (SELECT array_agg(m.scope ORDER BY m.scope) FROM memberships m WHERE m.user_id = $2 AND m.role = 'owner' AND m.scope_id IN (o.id, w.id, p.id)) AS owner_of,
        (SELECT plan FROM organization_subscriptions s WHERE s.organization_id = o.id) AS plan
      FROM organizations o JOIN workspaces w ON w.organization_id = o.id JOIN projects p ON p.organization_id = o.id WHERE o.id = $1`, [r.body.id, a.userId]);
    expect(rows.rows).toEqual([{ project: 'Default', workspace: 'Default', is_default: true, owner_of: ['organization', 'project', 'workspace'], plan: expect.any(String) }]);
    const first = await db.query('SELECT plan FROM organization_subscriptions WHERE organization_id = $1', [a.organizationId]);
    expect(rows.rows[0].plan).toBe(first.rows[0].plan);
  });

  it('given a body without a name, when an organization is created, then it is named after its owner; a bad body is 422', async () => {
    const r = await call('POST', '/organizations/', b.auth, {});
    expect(r.status).toBe(201);
    expect(r.body.name).toMatch(/'s Organization$/);
    expect((await call('POST', '/organizations/', b.auth, { name: 42 })).status).toBe(422);
    expect((await call('POST', '/organizations/', {}, { name: 'x' })).status).toBe(401);
  });

  it("given another account's organization, when it is fetched, renamed, deleted or transferred, then it is refused and unchanged", async () => {
    const id = await createOrg(a, { name: 'Private' });
    expect(await call('GET', `/organizations/${id}`, b.auth)).toEqual({ status: 403, body: { detail: 'Not a member of this organization.' } });
    expect((await call('GET', '/organizations/00000000-0000-0000-0000-000000000000', b.auth)).status).toBe(403);
    expect((await call('PUT', `/organizations/${id}`, b.auth, { name: 'Stolen' })).status).toBe(404);
    expect(await call('DELETE', `/organizations/${id}`, b.auth)).toEqual({ status: 403, body: { detail: 'You do not have permission to perform this action' } });
    expect(await call('POST', `/organizations/${id}/transfer/${b.userId}`, b.auth)).toEqual({ status: 403, body: { detail: 'Only the organization owner can transfer ownership' } });
    expect(await listed(b)).not.toContain(id);
    const after = await call('GET', `/organizations/${id}`, a.auth);
    expect(after.body).toMatchObject({ name: 'Private', owner_id: a.userId });
  });

  it('when an organization is renamed, then PUT answers the new name; an update naming no field is 400', async () => {
    const id = await createOrg(a);
    const r = await call('PUT', `/organizations/${id}`, a.auth, { name: 'Renamed' });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('Renamed');
    expect(await call('PUT', `/organizations/${id}`, a.auth, {})).toEqual({ status: 400, body: { detail: 'Please provide a field to update' } });
    expect((await call('PATCH', `/organizations/${id}`, a.auth, {})).status).toBe(400);
  });

  it('when an organization is deleted, then it answers 200 and is no longer listed; the owner keeps the first one', async () => {
    const id = await createOrg(a);
    expect(await call('DELETE', `/organizations/${id}`, a.auth)).toEqual({ status: 200, body: { detail: 'Organization deleted successfully' } });
    expect(await listed(a)).not.toContain(id);
    expect(await listed(a)).toContain(a.organizationId);
    expect((await call('GET', `/organizations/${id}`, a.auth)).status).toBe(403);
    expect((await call('DELETE', `/organizations/${id}`, a.auth)).status).toBe(403);
  });

  it("given an owner's last organization, when it is deleted, then 400 and it stays", async () => {
    const c = await createAccount(t.baseUrl, t.adminToken);
    expect(await call('DELETE', `/organizations/${c.organizationId}`, c.auth))
      .toEqual({ status: 400, body: { detail: 'Cannot delete your last organization. You must have at least one organization.' } });
    expect(await listed(c)).toContain(c.organizationId);
  });

  it('when an organization with keys, secrets and webhook subscriptions is deleted, then they go with it, its data keys are shredded and its key stops at once', async () => {
    const c = await createAccount(t.baseUrl, t.adminToken);
    await createOrg(c, { name: 'Keeps going' });
    const secret = await call('POST', '/secrets/', c.auth, { header: { name: 'openai' }, secret: { kind: 'provider_key', data: { kind: 'openai', provider: { key: 'sk-test-123' } } } });
    expect(secret.status).toBe(200);
    const hook = await call('POST', '/webhooks/subscriptions/', c.auth, { subscription: { name: 'h', data: { url: 'https://example.com/hook' } } });
    // Created for real, so that `hooks: 0` below says the deletion took it.
    expect({ status: hook.status, detail: hook.body?.detail }).toEqual({ status: 200, detail: undefined });
    const projects = (await db.query('SELECT id::text AS id FROM projects WHERE organization_id = $1', [c.organizationId])).rows.map((r) => r.id as string);
    expect((await db.query('SELECT count(*)::int AS n FROM secret_keys WHERE owner_id::text = ANY($1::text[])', [projects])).rows[0].n).toBeGreaterThan(0);
    expect((await db.query('SELECT count(*)::int AS n FROM webhook_subscriptions WHERE project_id::text = ANY($1::text[])', [projects])).rows[0].n).toBe(1);

    expect((await call('DELETE', `/organizations/${c.organizationId}`, c.auth)).status).toBe(200);

    // The key belonged to a project of the deleted organization: refused at once.
    expect((await call('GET', '/organizations/', c.auth)).status).toBe(401);
    const left = await db.query(`SELECT
        (SELECT count(*)::int FROM projects WHERE organization_id = $1) AS projects,
        (SELECT count(*)::int FROM workspaces WHERE organization_id = $1) AS workspaces,
        (SELECT count(*)::int FROM api_keys WHERE project_id::text = ANY($2::text[])) AS keys,
        (SELECT count(*)::int FROM secrets WHERE project_id::text = ANY($2::text[])) AS secrets,
        (SELECT count(*)::int FROM secret_keys WHERE owner_id::text = ANY($2::text[])) AS data_keys,
        (SELECT count(*)::int FROM webhook_subscriptions WHERE project_id::text = ANY($2::text[])) AS hooks,
        (SELECT count(*)::int FROM memberships WHERE scope_id = $1 OR scope_id::text = ANY($2::text[])) AS memberships,
        (SELECT count(*)::int FROM organization_subscriptions WHERE organization_id = $1) AS subscriptions`, [c.organizationId, projects]);
    expect(left.rows[0]).toEqual({ projects: 0, workspaces: 0, keys: 0, secrets: 0, data_keys: 0, hooks: 0, memberships: 0, subscriptions: 0 });
  });

  it('given a member, when the owner transfers the organization to them, then they own it and the two roles are swapped', async () => {
    const id = await createOrg(a, { name: 'Handed over' });
    const m = await call('POST', '/admin/simple/accounts/organizations/memberships/', admin(), { organization_id: id, user: { id: b.userId }, role: 'viewer' });
    expect(m.status).toBe(200);
    const r = await call('POST', `/organizations/${id}/transfer/${b.userId}`, a.auth);
    expect(r).toEqual({ status: 200, body: { organization_id: id, owner_id: b.userId } });
    expect((await call('GET', `/organizations/${id}`, b.auth)).body.owner_id).toBe(b.userId);
    const roles = await db.query(`SELECT user_id::text AS user_id, role FROM memberships WHERE scope = 'organization' AND scope_id = $1 ORDER BY role`, [id]);
    expect(roles.rows).toEqual([{ user_id: b.userId, role: 'owner' }, { user_id: a.userId, role: 'viewer' }]);
    const leftovers = await db.query(`SELECT count(*)::int AS n FROM memberships WHERE user_id = $1 AND role = 'owner' AND scope_id IN (
        SELECT id FROM workspaces WHERE organization_id = $2 UNION SELECT id FROM projects WHERE organization_id = $2)`, [a.userId, id]);
    expect(leftovers.rows[0].n).toBe(0);
    // The former owner is a viewer now: no more owner-only actions.
    expect((await call('DELETE', `/organizations/${id}`, a.auth)).status).toBe(403);
    expect((await call('PUT', `/organizations/${id}`, a.auth, { name: 'Mine again' })).status).toBe(403);
    expect(await listed(b)).toContain(id);
  });

  it('given a user who is not a member (or no user at all), when the owner transfers to them, then 400 and the owner stays', async () => {
    const id = await createOrg(a, { name: 'Not yours' });
    const body = { detail: 'Invalid organization or new owner for ownership transfer' };
    expect(await call('POST', `/organizations/${id}/transfer/${b.userId}`, a.auth)).toEqual({ status: 400, body });
    expect(await call('POST', `/organizations/${id}/transfer/not-a-uuid`, a.auth)).toEqual({ status: 400, body });
    expect((await call('GET', `/organizations/${id}`, a.auth)).body.owner_id).toBe(a.userId);
  });
});
