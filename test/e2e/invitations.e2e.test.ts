// Workspace invitations and member removal end to end (compat §3.1, §3.2, and the RBAC scenario of
// §3.3's test_rbac_enforcement.py): invite (200 {url} — no mail transport), resend, accept (400 /
// 409 / 410 in the reference's bodies), DELETE /workspaces/{ws}/users; only the organization's owner
// or an admin may invite or remove; another organization's key can do neither; an accepted
// invitation makes the user a member who can read the organization until removed.
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let owner: TestAccount;
let other: TestAccount;
let third: TestAccount;
let db: pg.Pool;
let ws: string;
beforeAll(async () => {
  t = await startTestApp();
  [owner, other, third] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
  ws = (await db.query('SELECT workspace_id::text AS id FROM projects WHERE id = $1', [owner.projectId])).rows[0].id;
});
afterAll(async () => { await db?.end(); await t?.stop(); });

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...headers, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const admin = () => ({ Authorization: `Access ${t.adminToken}` });
const fresh = (): string => `invitee-${randomBytes(5).toString('hex')}@example.org`;
const base = (org = owner.organizationId, w = ws) => `/organizations/${org}/workspaces/${w}`;
const invite = (acc: TestAccount, entries: unknown, path = base()) => call('POST', `${path}/invite?project_id=${owner.projectId}`, acc.auth, entries);
const accept = (acc: TestAccount, body: unknown, path = base()) => call('POST', `${path}/invite/accept?project_id=${owner.projectId}`, acc.auth, body);
const removeUser = (acc: TestAccount, email: string, w = ws, org = owner.organizationId) =>
  call('DELETE', `/workspaces/${w}/users?email=${encodeURIComponent(email)}&project_id=${owner.projectId}&organization_id=${org}`, acc.auth);
const tokenOf = (url: string): string => new URL(url).searchParams.get('token')!;
const FORBIDDEN = { detail: 'You do not have permission to perform this action. Please contact your Organization Owner' };

describe('workspace invitations', () => {
  it('when the owner invites an e-mail, then 200 {url} names the token, e-mail, organization, workspace and project; only the token hash is stored', async () => {
    const email = fresh();
    const r = await invite(owner, [{ email: email.toUpperCase(), roles: ['editor'] }]);
    expect(r.status).toBe(200);
    const url = new URL(r.body.url);
    expect(url.pathname).toBe('/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({ token: expect.stringMatching(/^[\w-]{40,}$/), email, organization_id: owner.organizationId, workspace_id: ws, project_id: owner.projectId });
    const rows = (await db.query('SELECT email, role, token_hash FROM invitations WHERE organization_id = $1 AND email = $2', [owner.organizationId, email])).rows;
    expect(rows).toEqual([{ email, role: 'editor', token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(JSON.stringify(rows)).not.toContain(tokenOf(r.body.url));
  });

  it('refuses, in the reference words: not exactly one entry, a workspace of another organization, oneself, a member or an invited e-mail, a bad role; a non-array body is 422', async () => {
    expect(await invite(owner, [])).toEqual({ status: 400, body: { detail: 'Only one user can be invited at a time.' } });
    expect(await invite(owner, [{ email: fresh() }, { email: fresh() }])).toEqual({ status: 400, body: { detail: 'Only one user can be invited at a time.' } });
    const otherWs = (await db.query('SELECT workspace_id::text AS id FROM projects WHERE id = $1', [other.projectId])).rows[0].id as string;
    expect(await invite(owner, [{ email: fresh() }], base(owner.organizationId, otherWs))).toEqual({ status: 404, body: { detail: 'Workspace not found for organization.' } });
    expect(await invite(owner, [{ email: fresh() }], base(owner.organizationId, 'not-a-uuid'))).toEqual({ status: 404, body: { detail: 'Workspace not found for organization.' } });
    expect(await call('POST', `${base()}/invite?project_id=${other.projectId}`, owner.auth, [{ email: fresh() }])).toEqual({ status: 404, body: { detail: 'Workspace not found for organization.' } });
    expect(await invite(owner, [{ email: owner.email }])).toEqual({ status: 400, body: { detail: 'You cannot invite yourself to a workspace' } });
    expect(await invite(owner, [{ email: fresh(), roles: ['superuser'] }])).toEqual({ status: 400, body: { detail: "Workspace role 'superuser' is invalid." } });
    expect(await invite(owner, [{ email: fresh(), roles: ['owner'] }])).toEqual({ status: 400, body: { detail: "Workspace role 'owner' is invalid." } });
    const email = fresh();
    expect((await invite(owner, [{ email }])).status).toBe(200);
    expect(await invite(owner, [{ email }])).toEqual({ status: 400, body: { detail: 'User is already a member of the workspace' } });
    expect((await db.query('SELECT role FROM invitations WHERE email = $1', [email])).rows).toEqual([{ role: 'viewer' }]);
    expect((await invite(owner, { email: fresh() })).status).toBe(422);
    expect((await invite(owner, [{ email: 'not-an-email' }])).status).toBe(422);
  });

  it("given another account's organization, when its key invites into it or removes from it, then 403 and nothing changes", async () => {
    const email = fresh();
    expect(await invite(other, [{ email }])).toEqual({ status: 403, body: FORBIDDEN });
    expect((await db.query('SELECT 1 FROM invitations WHERE email = $1', [email])).rows).toEqual([]);
    expect(await removeUser(other, owner.email)).toEqual({ status: 403, body: FORBIDDEN });
    expect(await call('POST', `${base()}/invite/resend`, other.auth, { email })).toEqual({ status: 403, body: FORBIDDEN });
  });

  it('RBAC (test_rbac_enforcement): given a viewer of the organization, then the owner may invite and remove, the viewer may do neither', async () => {
    const viewer = await createAccount(t.baseUrl, t.adminToken);
    expect((await call('POST', '/admin/simple/accounts/organizations/memberships/', admin(), { organization_id: owner.organizationId, user: { id: viewer.userId }, role: 'viewer' })).status).toBe(200);
    const target = `rbac-target-${randomBytes(4).toString('hex')}@agenta.ai`;
    expect((await invite(owner, [{ email: target, roles: ['viewer'] }])).status).toBe(200);
    expect(await invite(viewer, [{ email: fresh(), roles: ['viewer'] }])).toEqual({ status: 403, body: FORBIDDEN });
    expect(await removeUser(viewer, target)).toEqual({ status: 403, body: FORBIDDEN });
    expect(await removeUser(owner, target)).toEqual({ status: 200, body: true });
    expect((await db.query('SELECT 1 FROM invitations WHERE email = $1', [target])).rows).toEqual([]);
    // An admin may; the owner cannot be removed (403 with a message object).
    expect((await call('POST', '/admin/simple/accounts/organizations/memberships/', admin(), { organization_id: owner.organizationId, user: { id: viewer.userId }, role: 'admin' })).status).toBe(200);
    expect((await invite(viewer, [{ email: fresh() }])).status).toBe(200);
    expect(await removeUser(viewer, owner.email)).toEqual({ status: 403, body: { detail: { message: "The organization's owner cannot be removed from the workspace." } } });
    expect(await removeUser(owner, viewer.email)).toEqual({ status: 200, body: true });
    expect(await invite(viewer, [{ email: fresh() }])).toEqual({ status: 403, body: FORBIDDEN });
  });

  it('§3.2 on project roles: a project-only role (as the reference test makes it) is refused; an organization member who owns the workspace\'s first project may invite', async () => {
    const member = await createAccount(t.baseUrl, t.adminToken);
    const projectRole = (role: string) => call('POST', '/admin/simple/accounts/projects/memberships/', admin(), { membership: { project_ref: { id: owner.projectId }, user_ref: { id: member.userId }, role } });
    expect((await projectRole('viewer')).status).toBe(200);
    expect(await invite(member, [{ email: fresh() }])).toEqual({ status: 403, body: FORBIDDEN });
    expect((await projectRole('owner')).status).toBe(200);
    // Still no role in the organization itself: refused (step 1).
    expect(await invite(member, [{ email: fresh() }])).toEqual({ status: 403, body: FORBIDDEN });
    expect((await call('POST', '/admin/simple/accounts/organizations/memberships/', admin(), { membership: { organization_ref: { id: owner.organizationId }, user_ref: { id: member.userId }, role: 'viewer' } })).status).toBe(200);
    expect((await invite(member, [{ email: fresh() }])).status).toBe(200);
  });

  it('given an invitation, when its addressee accepts it, then they are a member who can read the organization until removed', async () => {
    expect((await call('GET', `/organizations/${owner.organizationId}`, other.auth)).status).toBe(403);
    const r = await invite(owner, [{ email: other.email, roles: ['editor'] }]);
    expect(r.status).toBe(200);
    const token = tokenOf(r.body.url);
    expect(await accept(other, { token: 'nope', email: other.email })).toEqual({ status: 400, body: { detail: { error: 'invitation_not_found', message: 'Invitation does not exist.' } } });
    expect(await accept(other, { token, email: third.email })).toEqual({ status: 400, body: { detail: { error: 'invitation_not_found', message: 'Invitation does not exist.' } } });
    expect(await accept(third, { token, email: other.email })).toEqual({ status: 400, body: { detail: { error: 'invitation_wrong_user', message: 'Invitation is addressed to a different user.' } } });
    expect(await accept(other, { token, email: other.email })).toEqual({ status: 200, body: { message: 'Added user to workspace' } });
    expect(await accept(other, { token, email: other.email })).toEqual({ status: 409, body: { detail: 'Invitation has already been accepted.' } });
    expect((await db.query('SELECT role FROM memberships WHERE scope = $1 AND scope_id = $2 AND user_id = $3', ['organization', owner.organizationId, other.userId])).rows).toEqual([{ role: 'editor' }]);
    const fetched = await call('GET', `/organizations/${owner.organizationId}`, other.auth);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({ id: owner.organizationId });
    // An editor may not invite; a member is "already a member".
    expect(await invite(other, [{ email: fresh() }])).toEqual({ status: 403, body: FORBIDDEN });
    expect(await invite(owner, [{ email: other.email.toUpperCase() }])).toEqual({ status: 400, body: { detail: 'User is already a member of the workspace' } });
    expect(await removeUser(owner, other.email)).toEqual({ status: 200, body: true });
    expect((await call('GET', `/organizations/${owner.organizationId}`, other.auth)).status).toBe(403);
    expect(await removeUser(owner, other.email)).toEqual({ status: 404, body: { detail: 'User is not a member of the workspace.' } });
  });

  it('given a pending invitation, when it is resent, then only the new token is good; an unknown e-mail is 404; a removed invitation cannot be accepted', async () => {
    const r = await invite(owner, [{ email: third.email }]);
    const old = tokenOf(r.body.url);
    expect(await call('POST', `${base()}/invite/resend`, owner.auth, { email: 'nobody@example.org' })).toEqual({ status: 404, body: { detail: 'No pending invitation for this e-mail.' } });
    const again = await call('POST', `${base()}/invite/resend`, owner.auth, { email: third.email });
    expect(again.status).toBe(200);
    const token = tokenOf(again.body.url);
    expect(token).not.toBe(old);
    expect((await accept(third, { token: old, email: third.email })).status).toBe(400);
    expect(await removeUser(owner, third.email)).toEqual({ status: 200, body: true });
    expect(await accept(third, { token, email: third.email })).toEqual({ status: 400, body: { detail: { error: 'invitation_not_found', message: 'Invitation does not exist.' } } });
    expect((await call('GET', `/organizations/${owner.organizationId}`, third.auth)).status).toBe(403);
  });

  it('given an expired invitation, when it is accepted, then 410 and no membership; a resend makes it good again', async () => {
    const r = await invite(owner, [{ email: third.email }]);
    await db.query(`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE organization_id = $1 AND email = $2`, [owner.organizationId, third.email]);
    expect(await accept(third, { token: tokenOf(r.body.url), email: third.email })).toEqual({ status: 410, body: { detail: 'Invitation has expired.' } });
    expect((await call('GET', `/organizations/${owner.organizationId}`, third.auth)).status).toBe(403);
    const again = await call('POST', `${base()}/invite/resend`, owner.auth, { email: third.email });
    expect((await accept(third, { token: tokenOf(again.body.url), email: third.email })).status).toBe(200);
    expect((await call('GET', `/organizations/${owner.organizationId}`, third.auth)).status).toBe(200);
  });

  it('given malformed ids, repeated query keys or control characters, then each route answers 4xx, never 5xx', async () => {
    const bad = '%00%27%22';
    const answers = await Promise.all([
      call('POST', `/organizations/${bad}/workspaces/${bad}/invite?project_id=${bad}`, owner.auth, [{ email: fresh() }]),
      call('POST', `${base()}/invite?project_id=${bad}`, owner.auth, [{ email: fresh() }]),
      call('POST', `/organizations/${bad}/workspaces/${bad}/invite/resend`, owner.auth, { email: fresh() }),
      call('POST', `/organizations/${bad}/workspaces/${bad}/invite/accept`, owner.auth, { token: 'x', email: fresh() }),
      accept(owner, { token: 'a\u0000b', email: owner.email }),
      accept(owner, { token: 'x'.repeat(10_000), email: owner.email }),
      call('DELETE', `/workspaces/${bad}/users?email=${encodeURIComponent(fresh())}&organization_id=${bad}`, owner.auth),
      call('DELETE', `/workspaces/${ws}/users?email=a@example.org&email=b@example.org`, owner.auth),
      call('DELETE', `/workspaces/${ws}/users`, owner.auth),
    ]);
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 400, 422, 422, 422, 422, 422]);
  });

  it('when an organization is deleted, then its invitations go with it', async () => {
    const org = await call('POST', '/organizations/', owner.auth, { name: 'Invites' });
    const w = (await db.query('SELECT id::text AS id FROM workspaces WHERE organization_id = $1', [org.body.id])).rows[0].id as string;
    expect((await call('POST', `/organizations/${org.body.id}/workspaces/${w}/invite`, owner.auth, [{ email: fresh() }])).status).toBe(200);
    expect((await call('DELETE', `/organizations/${org.body.id}`, owner.auth)).status).toBe(200);
    expect((await db.query('SELECT 1 FROM invitations WHERE organization_id = $1', [org.body.id])).rows).toEqual([]);
  });
});
