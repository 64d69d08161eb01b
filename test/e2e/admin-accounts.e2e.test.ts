// Operator routes (compat §2): every path containing /admin/ takes only `Authorization: Access
// <ADMIN_TOKEN>`, checked before routing — the 24 admin paths of compat §2.3 (served or not) answer
// an unauthenticated call with 401 {"detail":{"message":"Unauthorized"}}, whatever the method's body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t?.stop(); });

const ID = '0190b6a4-4b7e-7000-8000-000000000001';
const ADMIN_PATHS: Array<[string, string]> = [
  ['POST', '/admin/accounts/'], ['DELETE', '/admin/accounts/'],
  ['POST', '/admin/simple/accounts/'], ['DELETE', '/admin/simple/accounts/'],
  ['POST', '/admin/simple/accounts/users/'], ['DELETE', `/admin/simple/accounts/users/${ID}`],
  ['POST', '/admin/simple/accounts/users/identities/'], ['DELETE', `/admin/simple/accounts/users/${ID}/identities/${ID}`],
  ['POST', '/admin/simple/accounts/organizations/'], ['DELETE', `/admin/simple/accounts/organizations/${ID}`],
  ['POST', '/admin/simple/accounts/organizations/memberships/'], ['DELETE', `/admin/simple/accounts/organizations/${ID}/memberships/${ID}`],
  ['POST', '/admin/simple/accounts/workspaces/'], ['DELETE', `/admin/simple/accounts/workspaces/${ID}`],
  ['POST', '/admin/simple/accounts/workspaces/memberships/'], ['DELETE', `/admin/simple/accounts/workspaces/${ID}/memberships/${ID}`],
  ['POST', '/admin/simple/accounts/projects/'], ['DELETE', `/admin/simple/accounts/projects/${ID}`],
  ['POST', '/admin/simple/accounts/projects/memberships/'], ['DELETE', `/admin/simple/accounts/projects/${ID}/memberships/${ID}`],
  ['POST', '/admin/simple/accounts/api-keys/'], ['DELETE', `/admin/simple/accounts/api-keys/${ID}`],
  ['POST', '/admin/simple/accounts/reset-password'], ['POST', '/admin/simple/accounts/transfer-ownership'],
];
const BAD_HEADERS: Array<[string, Record<string, string>]> = [
  ['no header', {}], ['another scheme', { Authorization: 'Bearer not-a-valid-token' }], ['a wrong key', { Authorization: 'Access definitely-wrong-key' }],
];

async function call(method: string, path: string, headers: Record<string, string>, body: unknown = {}): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...headers, 'Content-Type': 'application/json' }, ...(method === 'GET' ? {} : { body: JSON.stringify(body) }) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

describe('admin authentication (compat §2.1)', () => {
  it('given the 24 admin paths, when called without the operator key (none, Bearer, a wrong Access key), then each answers 401 Unauthorized', async () => {
    expect(ADMIN_PATHS).toHaveLength(24);
    for (const [method, path] of ADMIN_PATHS) {
      for (const [what, headers] of BAD_HEADERS) {
        const r = await call(method, path, headers);
        expect({ method, path, what, ...r }).toEqual({ method, path, what, status: 401, body: { detail: { message: 'Unauthorized' } } });
      }
    }
  });

  it('given an /admin/ path under /api or with an invalid body, when unauthenticated, then 401 wins over 404 and 422', async () => {
    expect(await call('POST', '/api/admin/simple/accounts/', {}, 'not an object')).toEqual({ status: 401, body: { detail: { message: 'Unauthorized' } } });
    expect((await call('GET', '/admin/nothing-here/', { Authorization: 'ApiKey x.y' })).status).toBe(401);
    expect((await call('PATCH', '/some/admin/path', {})).status).toBe(401);
  });

  it('given the operator key, when an unserved /admin/ path is called, then it is a plain 404 and served ones work', async () => {
    const ok = { Authorization: `Access ${t.adminToken}` };
    expect((await call('POST', '/admin/nothing-here/', ok)).status).toBe(404);
    expect((await call('POST', '/admin/simple/accounts/', ok, {})).status).toBe(422);
  });

  it('given a path without /admin/, when called without credentials, then the gate leaves it alone', async () => {
    expect((await fetch(`${t.baseUrl}/health`)).status).toBe(200);
    expect((await call('GET', '/no-such-route', {})).status).toBe(404);
  });
});

// The entity routes (compat §2.3, acceptance test_simple_entities.py): one user, organization or
// API key at a time, errors as {"detail":{"message":…, <extra keys>}}.
describe('admin entity routes (compat §2.3)', () => {
  const admin = () => ({ Authorization: `Access ${t.adminToken}` });
  const email = () => `${Math.random().toString(16).slice(2, 12)}@entities.example.com`;
  type Accounts = { accounts: Array<Record<string, Record<string, Record<string, unknown>>>> };

  it('given a new e-mail, when POST users/ (seed_defaults by default), then the user, "<label>\'s Organization", Default workspace/project and owner memberships, and no key', async () => {
    const mail = email();
    const r = await call('POST', '/admin/simple/accounts/users/', admin(), { user: { email: mail, name: 'Ada' } });
    expect(r.status).toBe(200);
    const a = (r.body as Accounts).accounts[0]!;
    expect(a.users!.user).toMatchObject({ email: mail, name: 'Ada' });
    expect(a.organizations!.org).toMatchObject({ name: "Ada's Organization", owner_user_id: a.users!.user!.id });
    expect(a.workspaces!.wrk).toMatchObject({ name: 'Default', organization_id: a.organizations!.org!.id });
    expect(a.projects!.prj).toMatchObject({ name: 'Default', is_default: true, workspace_id: a.workspaces!.wrk!.id });
    expect(a.organization_memberships!.org).toMatchObject({ role: 'owner', user_id: a.users!.user!.id });
    expect(a.api_keys).toBeUndefined();
    expect((await call('POST', '/admin/simple/accounts/users/', admin(), { user: { email: mail } })).status).toBe(409);
    // The account route answers a taken e-mail in the same admin body (compat §2.2).
    expect(await call('POST', '/admin/simple/accounts/', admin(), { accounts: { again: { user: { email: mail } } } }))
      .toEqual({ status: 409, body: { detail: { message: `User with email '${mail}' already exists.`, email: mail } } });
  });

  it('given seed_defaults false, when POST users/, then only the user; with create_api_keys and return_api_keys a key value is returned', async () => {
    const alone = await call('POST', '/admin/simple/accounts/users/', admin(), { options: { seed_defaults: false }, user: { email: email() } });
    expect(alone.status).toBe(200);
    expect((alone.body as Accounts).accounts[0]).toMatchObject({ organizations: {}, projects: {}, users: { user: { id: expect.any(String) } } });
    const keyed = await call('POST', '/admin/simple/accounts/users/', admin(), { options: { create_api_keys: true, return_api_keys: true }, user: { email: email() } });
    const k = (keyed.body as Accounts).accounts[0]!.api_keys!.key as { value: string };
    expect((await fetch(`${t.baseUrl}/projects/current`, { headers: { Authorization: `ApiKey ${k.value}` } })).status).toBe(200);
  });

  it('given a user with an organization, when DELETE users/{id}, then 200 naming the user and organizations; again 404; a bad id 400', async () => {
    const created = await call('POST', '/admin/simple/accounts/users/', admin(), { user: { email: email() } });
    const a = (created.body as Accounts).accounts[0]!;
    const id = a.users!.user!.id as string;
    expect(await call('DELETE', `/admin/simple/accounts/users/${id}`, admin())).toEqual({
      status: 200, body: { dry_run: false, deleted: { organizations: [{ id: a.organizations!.org!.id }], users: [{ id }] } },
    });
    expect(await call('DELETE', `/admin/simple/accounts/users/${id}`, admin())).toEqual({ status: 404, body: { detail: { message: `User not found: ${id}.`, ref: id } } });
    expect((await call('DELETE', '/admin/simple/accounts/users/not-a-uuid', admin())).status).toBe(400);
  });

  it('given an existing owner by e-mail, when POST organizations/, then 200 with owner, org, wrk, prj; DELETE → 200 deleted.organizations, again 404', async () => {
    const owner = await createAccount(t.baseUrl, t.adminToken);
    const r = await call('POST', '/admin/simple/accounts/organizations/', admin(), { organization: { name: 'Second Org' }, owner: { email: owner.email } });
    expect(r.status).toBe(200);
    const a = (r.body as Accounts).accounts[0]!;
    expect(a.users!.owner).toMatchObject({ id: owner.userId });
    expect(a.organizations!.org).toMatchObject({ name: 'Second Org', owner_user_id: owner.userId });
    expect(a.projects!.prj).toMatchObject({ name: 'Default', is_default: true });
    // The owner holds a membership: the organization is among theirs (unlike the reference's OSS).
    const mine = await fetch(`${t.baseUrl}/organizations/`, { headers: owner.auth });
    expect(((await mine.json()) as Array<{ id: string }>).map((o) => o.id)).toContain(a.organizations!.org!.id);
    const orgId = a.organizations!.org!.id as string;
    expect(await call('DELETE', `/admin/simple/accounts/organizations/${orgId}`, admin())).toEqual({ status: 200, body: { dry_run: false, deleted: { organizations: [{ id: orgId }] } } });
    expect(await call('DELETE', `/admin/simple/accounts/organizations/${orgId}`, admin())).toEqual({ status: 404, body: { detail: { message: `Organization not found: ${orgId}.`, ref: orgId } } });
    // An owner's only organization is not protected from the operator.
    expect((await call('DELETE', `/admin/simple/accounts/organizations/${owner.organizationId}`, admin())).status).toBe(200);
  });

  it('given no owner, an unknown owner, or a bad reference, when POST organizations/, then 400, 404, 400 and 422', async () => {
    expect(await call('POST', '/admin/simple/accounts/organizations/', admin(), { organization: { name: 'X' } }))
      .toEqual({ status: 400, body: { detail: { message: "Organization 'org' requires a valid owner user." } } });
    const ghost = email();
    expect(await call('POST', '/admin/simple/accounts/organizations/', admin(), { organization: { name: 'X' }, owner: { email: ghost } }))
      .toEqual({ status: 404, body: { detail: { message: `User not found: ${ghost}.`, ref: ghost } } });
    expect((await call('POST', '/admin/simple/accounts/organizations/', admin(), { organization: { name: 'X' }, owner: { id: 'nope' } })).status).toBe(400);
    expect((await call('POST', '/admin/simple/accounts/organizations/', admin(), { organization: { name: 'X' }, owner: { slug: 'someone' } })).status).toBe(400);
    expect((await call('POST', '/admin/simple/accounts/organizations/', admin(), { organization: { name: 'X' }, owner: { id: ID, email: 'a@b.co' } })).status).toBe(422);
    expect((await call('DELETE', '/admin/simple/accounts/organizations/nope', admin())).status).toBe(400);
  });

  it('given an admin-made organization, when an API key is made for its project, then the key sees only that project and is revoked by DELETE', async () => {
    const owner = await createAccount(t.baseUrl, t.adminToken);
    const org = await call('POST', '/admin/simple/accounts/organizations/', admin(), { organization: { name: 'Tenant B' }, owner: { id: owner.userId } });
    const prj = (org.body as Accounts).accounts[0]!.projects!.prj!.id as string;
    const r = await call('POST', '/admin/simple/accounts/api-keys/', admin(), { options: { return_api_keys: true }, api_key: { project_ref: { id: prj }, user_ref: { email: owner.email } } });
    expect(r.status).toBe(200);
    const key = (r.body as Accounts).accounts[0]!.api_keys!.key as { id: string; prefix: string; project_id: string; user_id: string; value: string };
    expect(key).toMatchObject({ project_id: prj, user_id: owner.userId, value: expect.any(String) });
    const auth = { Authorization: `ApiKey ${key.value}` };
    const current = await fetch(`${t.baseUrl}/projects/current`, { headers: auth });
    expect(await current.json()).toMatchObject({ project_id: prj, organization_id: (org.body as Accounts).accounts[0]!.organizations!.org!.id });
    const keys = (await (await fetch(`${t.baseUrl}/keys`, { headers: auth })).json()) as Array<{ id: string; project_id?: string }>;
    expect(keys.map((k) => k.id)).toEqual([key.id]);
    // The account's own key still sees its own project only.
    const own = (await (await fetch(`${t.baseUrl}/keys`, { headers: owner.auth })).json()) as Array<{ id: string }>;
    expect(own.map((k) => k.id)).not.toContain(key.id);
    // Without return_api_keys, no value.
    const hidden = await call('POST', '/admin/simple/accounts/api-keys/', admin(), { api_key: { project_ref: { id: prj }, user_ref: { id: owner.userId } } });
    expect((hidden.body as Accounts).accounts[0]!.api_keys!.key).not.toHaveProperty('value');
    expect(await call('DELETE', `/admin/simple/accounts/api-keys/${key.id}`, admin())).toEqual({ status: 200, body: { dry_run: false, deleted: { api_keys: [{ id: key.id }] } } });
    expect((await fetch(`${t.baseUrl}/projects/current`, { headers: auth })).status).toBe(401);
    expect(await call('DELETE', `/admin/simple/accounts/api-keys/${ID}`, admin())).toEqual({ status: 404, body: { detail: { message: `API key not found: ${ID}.`, ref: ID } } });
    expect((await call('POST', '/admin/simple/accounts/api-keys/', admin(), { api_key: { project_ref: { slug: 'x' }, user_ref: { id: owner.userId } } })).status).toBe(400);
    expect((await call('POST', '/admin/simple/accounts/api-keys/', admin(), { api_key: { project_ref: { id: ID }, user_ref: { id: owner.userId } } })).status).toBe(404);
  });

  it('given this backend has no password logins, when identities or reset-password are called, then 400 naming the feature (the reference: 501; no input earns a 5xx here)', async () => {
    const body = { detail: { message: "'user_identities' is not supported by this backend: it has no password logins.", feature: 'user_identities' } };
    expect(await call('POST', '/admin/simple/accounts/users/identities/', admin(), { user_ref: { id: ID }, user_identity: { method: 'email:password', subject: 'a@b.co' } })).toEqual({ status: 400, body });
    expect(await call('DELETE', `/admin/simple/accounts/users/${ID}/identities/${ID}`, admin())).toEqual({ status: 400, body });
    expect(await call('POST', '/admin/simple/accounts/reset-password', admin(), { user_identities: [] }))
      .toEqual({ status: 400, body: { detail: { message: "'reset_password' is not supported by this backend: it has no password logins.", feature: 'reset_password' } } });
  });
});
