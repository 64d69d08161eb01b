// Operator routes for workspaces, projects, roles and ownership (compat §2.3): one workspace per
// organization (creating answers it), projects as accounts.project.* events, roles held in the
// organization, its workspace or one project (ids derived from scope and user), and the operator's
// transfer of ownership. Errors are {"detail":{"message":…, <extra keys>}}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let a: TestAccount;
let b: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
});
afterAll(async () => { await t?.stop(); });

type Json = Record<string, unknown>;
type Accounts = { accounts: Array<Record<string, Record<string, Json>>> };
const admin = () => ({ Authorization: `Access ${t.adminToken}` });
const UNKNOWN = '0190b6a4-4b7e-7000-8000-0000000000ff';

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = admin()): Promise<{ status: number; body: Json }> {
  const r = await fetch(`${t.baseUrl}${path}`, {
    method, headers: { ...headers, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) as Json : {} };
}
const first = (r: { body: Json }) => (r.body as unknown as Accounts).accounts[0]!;
const workspaceOf = async (acc: TestAccount): Promise<string> =>
  first(await call('POST', '/admin/simple/accounts/workspaces/', { workspace: { name: 'W', organization_ref: { id: acc.organizationId } } })).workspaces!.wrk!.id as string;
const newKey = async (projectId: string, userId: string): Promise<string> => {
  const r = await call('POST', '/admin/simple/accounts/api-keys/', { options: { return_api_keys: true }, api_key: { project_ref: { id: projectId }, user_ref: { id: userId } } });
  expect(r.status).toBe(200);
  return first(r).api_keys!.key!.value as string;
};
const current = (key: string) => fetch(`${t.baseUrl}/projects/current`, { headers: { Authorization: `ApiKey ${key}` } });

describe('workspaces (one per organization)', () => {
  it('given an organization, when POST workspaces/, then its one workspace and default project are answered, every time', async () => {
    const r1 = await call('POST', '/admin/simple/accounts/workspaces/', { workspace: { name: 'Another', organization_ref: { id: a.organizationId } } });
    expect(r1.status).toBe(200);
    const acc = first(r1);
    expect(acc.workspaces!.wrk).toMatchObject({ organization_id: a.organizationId, name: 'Default' });
    expect(acc.projects!.prj).toMatchObject({ id: a.projectId, is_default: true, workspace_id: acc.workspaces!.wrk!.id });
    expect(first(await call('POST', '/admin/simple/accounts/workspaces/', { workspace: { name: 'X', organization_ref: { id: a.organizationId } } })).workspaces!.wrk!.id).toBe(acc.workspaces!.wrk!.id);
  });

  it('given bad references, when POST workspaces/, then 404 for an unknown organization and 422 for a ref that is not exactly one key', async () => {
    expect(await call('POST', '/admin/simple/accounts/workspaces/', { workspace: { name: 'W', organization_ref: { id: UNKNOWN } } }))
      .toEqual({ status: 404, body: { detail: { message: `Organization not found: ${UNKNOWN}.`, ref: UNKNOWN } } });
    expect((await call('POST', '/admin/simple/accounts/workspaces/', { workspace: { name: 'W', organization_ref: { id: UNKNOWN, slug: 'x' } } })).status).toBe(422);
  });

  it('given a workspace, when DELETE workspaces/{id}, then 400 (it goes only with its organization); unknown → 404; malformed → 400', async () => {
    const ws = await workspaceOf(a);
    const kept = await call('DELETE', `/admin/simple/accounts/workspaces/${ws}`);
    expect(kept.status).toBe(400);
    expect((kept.body.detail as Json).message).toContain('only workspace');
    expect((await call('DELETE', `/admin/simple/accounts/workspaces/${UNKNOWN}`)).status).toBe(404);
    expect((await call('DELETE', '/admin/simple/accounts/workspaces/not-a-uuid')).status).toBe(400);
    expect((await current(a.apiKey)).status).toBe(200);
  });
});

describe('projects', () => {
  it('given an organization and its workspace, when a project is created, keyed and deleted, then its key works until the delete and 401s after', async () => {
    const ws = await workspaceOf(a);
    const r = await call('POST', '/admin/simple/accounts/projects/', { project: { name: 'Research', organization_ref: { id: a.organizationId }, workspace_ref: { id: ws } } });
    expect(r.status).toBe(200);
    const prj = first(r).projects!.prj!;
    expect(prj).toMatchObject({ name: 'Research', organization_id: a.organizationId, workspace_id: ws, is_default: false });
    const key = await newKey(prj.id as string, a.userId);
    const cur = await current(key);
    expect(cur.status).toBe(200);
    expect(await cur.json()).toMatchObject({ project_id: prj.id, organization_id: a.organizationId });

    expect(await call('DELETE', `/admin/simple/accounts/projects/${prj.id as string}`)).toEqual({ status: 200, body: { dry_run: false, deleted: { projects: [{ id: prj.id }] } } });
    expect((await current(key)).status).toBe(401);
    expect((await call('DELETE', `/admin/simple/accounts/projects/${prj.id as string}`)).status).toBe(404);
    // The organization's default project is untouched.
    expect((await current(a.apiKey)).status).toBe(200);
  });

  it('given the default project, when DELETE projects/{id}, then 400: it goes only with its organization', async () => {
    const r = await call('DELETE', `/admin/simple/accounts/projects/${a.projectId}`);
    expect(r.status).toBe(400);
    expect((r.body.detail as Json).ref).toBe(a.projectId);
    expect((await current(a.apiKey)).status).toBe(200);
  });

  it('given is_default, when a project is created, then it becomes the organization\'s default and the old one no longer is', async () => {
    const c = await createAccount(t.baseUrl, t.adminToken);
    const ws = await workspaceOf(c);
    const r = await call('POST', '/admin/simple/accounts/projects/', { project: { name: 'Main', organization_ref: { id: c.organizationId }, workspace_ref: { id: ws }, is_default: true } });
    expect(first(r).projects!.prj).toMatchObject({ is_default: true });
    // The former default can now be deleted; the new one cannot.
    expect((await call('DELETE', `/admin/simple/accounts/projects/${c.projectId}`)).status).toBe(200);
    expect((await call('DELETE', `/admin/simple/accounts/projects/${first(r).projects!.prj!.id as string}`)).status).toBe(400);
  });

  it('given bad references, when POST projects/, then a workspace slug → 400, another organization\'s workspace → 400, unknown organization or workspace → 404', async () => {
    const wsA = await workspaceOf(a);
    const wsB = await workspaceOf(b);
    const post = (organization_ref: Json, workspace_ref: Json) => call('POST', '/admin/simple/accounts/projects/', { project: { name: 'P', organization_ref, workspace_ref } });
    const slug = await post({ id: a.organizationId }, { slug: 'default' });
    expect(slug.status).toBe(400);
    expect((slug.body.detail as Json).message).toBe("Invalid reference at 'project.workspace_ref': slug-based references are not supported for workspace");
    expect((await post({ id: a.organizationId }, { id: wsB })).status).toBe(400);
    expect((await post({ id: UNKNOWN }, { id: wsA })).status).toBe(404);
    expect((await post({ id: a.organizationId }, { id: UNKNOWN })).status).toBe(404);
  });
});

describe('memberships (the reference\'s bodies)', () => {
  it('given another user, when given a role in one project, then their key for it works with that role until the membership is deleted by id', async () => {
    const key = await newKey(a.projectId, b.userId);
    expect((await current(key)).status).toBe(401);
    const r = await call('POST', '/admin/simple/accounts/projects/memberships/', { membership: { project_ref: { id: a.projectId }, user_ref: { id: b.userId }, role: 'viewer' } });
    expect(r.status).toBe(200);
    const mem = first(r).project_memberships!.mem!;
    expect(mem).toMatchObject({ project_id: a.projectId, user_id: b.userId, role: 'viewer' });
    const cur = await current(key);
    expect(cur.status).toBe(200);
    expect(await cur.json()).toMatchObject({ project_id: a.projectId, user_role: 'viewer' });

    expect(await call('DELETE', `/admin/simple/accounts/projects/${a.projectId}/memberships/${mem.id as string}`))
      .toEqual({ status: 200, body: { dry_run: false, deleted: { project_memberships: [{ id: mem.id }] } } });
    expect((await current(key)).status).toBe(401);
    expect((await call('DELETE', `/admin/simple/accounts/projects/${a.projectId}/memberships/${mem.id as string}`)).status).toBe(404);
  });

  it('given a workspace role and then an organization role, when each is removed by its id, then the other levels follow the rules (the organization role takes all)', async () => {
    const c = await createAccount(t.baseUrl, t.adminToken);
    const ws = await workspaceOf(a);
    const key = await newKey(a.projectId, c.userId);
    const w = await call('POST', '/admin/simple/accounts/workspaces/memberships/', { membership: { workspace_ref: { id: ws }, user_ref: { email: c.email }, role: 'editor' } });
    expect(w.status).toBe(200);
    expect(first(w).workspace_memberships!.mem).toMatchObject({ workspace_id: ws, user_id: c.userId, role: 'editor' });
    expect(await (await current(key)).json()).toMatchObject({ user_role: 'editor' });
    const o = await call('POST', '/admin/simple/accounts/organizations/memberships/', { membership: { organization_ref: { id: a.organizationId }, user_ref: { id: c.userId }, role: 'admin' } });
    expect(o.status).toBe(200);
    const orgMem = first(o).organization_memberships!.mem!;
    expect(orgMem).toMatchObject({ organization_id: a.organizationId, user_id: c.userId, role: 'admin' });
    // The workspace role is the more specific one.
    expect(await (await current(key)).json()).toMatchObject({ user_role: 'editor' });
    expect((await call('DELETE', `/admin/simple/accounts/organizations/${a.organizationId}/memberships/${orgMem.id as string}`)).status).toBe(200);
    expect((await current(key)).status).toBe(401);
    expect((await call('DELETE', `/admin/simple/accounts/workspaces/${ws}/memberships/${first(w).workspace_memberships!.mem!.id as string}`)).status).toBe(404);
  });

  it('given bad memberships, then owner of an organization → 400, unknown project or user → 404, unknown membership id → 404, malformed id → 400', async () => {
    const owner = await call('POST', '/admin/simple/accounts/organizations/memberships/', { membership: { organization_ref: { id: a.organizationId }, user_ref: { id: b.userId }, role: 'owner' } });
    expect(owner.status).toBe(400);
    expect((owner.body.detail as Json).message).toContain('transferring ownership');
    expect((await call('POST', '/admin/simple/accounts/projects/memberships/', { membership: { project_ref: { id: UNKNOWN }, user_ref: { id: b.userId }, role: 'viewer' } })).status).toBe(404);
    expect((await call('POST', '/admin/simple/accounts/projects/memberships/', { membership: { project_ref: { id: a.projectId }, user_ref: { id: UNKNOWN }, role: 'viewer' } })).status).toBe(404);
    expect((await call('POST', '/admin/simple/accounts/projects/memberships/', { membership: { project_ref: { id: a.projectId }, user_ref: { id: b.userId }, role: 'king' } })).status).toBe(422);
    expect((await call('DELETE', `/admin/simple/accounts/organizations/${a.organizationId}/memberships/${UNKNOWN}`)).status).toBe(404);
    expect((await call('DELETE', `/admin/simple/accounts/organizations/${a.organizationId}/memberships/nope`)).status).toBe(400);
  });
});

describe('transfer-ownership', () => {
  it('given a member, when the operator transfers the owner\'s organization to them, then 204 and they own it; a non-member target is a per-organization error', async () => {
    const o = await createAccount(t.baseUrl, t.adminToken);
    const m = await createAccount(t.baseUrl, t.adminToken);
    const outsider = await createAccount(t.baseUrl, t.adminToken);
    expect((await call('POST', '/admin/simple/accounts/organizations/memberships/', { membership: { organization_ref: { id: o.organizationId }, user_ref: { id: m.userId }, role: 'viewer' } })).status).toBe(200);

    const refused = await call('POST', '/admin/simple/accounts/transfer-ownership', { users: { source: { id: o.userId }, target: { id: outsider.userId } }, organizations: { x: { id: o.organizationId } } });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ transferred: [], errors: [{ code: 'target_not_member', details: { key: 'x', organization_id: o.organizationId } }] });

    const moved = await call('POST', '/admin/simple/accounts/transfer-ownership', { users: { source: { email: o.email }, target: { email: m.email } }, organizations: { x: { id: o.organizationId } } });
    expect(moved.status).toBe(204);
    const org = await fetch(`${t.baseUrl}/organizations/${o.organizationId}`, { headers: o.auth });
    expect(await org.json()).toMatchObject({ owner_id: m.userId });

    // The former owner no longer owns it: a second transfer from them is refused per organization.
    const again = await call('POST', '/admin/simple/accounts/transfer-ownership', { users: { source: { id: o.userId }, target: { id: m.userId } }, organizations: { x: { id: o.organizationId } } });
    expect(again.body).toMatchObject({ transferred: [], errors: [{ code: 'not_owned_by_source' }] });
  });

  it('given no organizations named, when transferring, then every organization the source owns moves', async () => {
    const o = await createAccount(t.baseUrl, t.adminToken);
    const m = await createAccount(t.baseUrl, t.adminToken);
    await call('POST', '/admin/simple/accounts/organizations/memberships/', { membership: { organization_ref: { id: o.organizationId }, user_ref: { id: m.userId }, role: 'admin' } });
    expect((await call('POST', '/admin/simple/accounts/transfer-ownership', { users: { source: { id: o.userId }, target: { id: m.userId } } })).status).toBe(204);
    const org = await fetch(`${t.baseUrl}/organizations/${o.organizationId}`, { headers: m.auth });
    expect(await org.json()).toMatchObject({ owner_id: m.userId });
  });

  it('given bad users or organizations, then unknown source → 404, missing target → 400, an unknown organization → 200 with organization_not_found', async () => {
    expect((await call('POST', '/admin/simple/accounts/transfer-ownership', { users: { source: { email: 'nobody@nowhere.example.com' }, target: { id: a.userId } } })).status).toBe(404);
    expect((await call('POST', '/admin/simple/accounts/transfer-ownership', { users: { source: { id: a.userId } } })).status).toBe(400);
    const r = await call('POST', '/admin/simple/accounts/transfer-ownership', { users: { source: { id: a.userId }, target: { id: b.userId } }, organizations: { gone: { id: UNKNOWN } } });
    expect(r).toMatchObject({ status: 200, body: { transferred: [], errors: [{ code: 'organization_not_found' }] } });
  });
});

describe('graph (POST/DELETE /admin/accounts/)', () => {
  const mail = () => `${Math.random().toString(16).slice(2, 12)}@graph.example.com`;

  it('given a graph of users, an organization, its workspace, two projects, roles and a key, when created, then every ref maps to its entity and the key works with its role', async () => {
    const [m1, m2] = [mail(), mail()];
    const r = await call('POST', '/admin/accounts/', {
      options: { create_api_keys: true, return_api_keys: true },
      users: { u1: { email: m1, name: 'One' }, u2: { email: m2 } },
      organizations: { org: { name: 'Acme', owner_user_ref: { ref: 'u1' } } },
      workspaces: { wrk: { name: 'Main', organization_ref: { ref: 'org' } } },
      projects: {
        prj: { name: 'App', organization_ref: { ref: 'org' }, workspace_ref: { ref: 'wrk' }, is_default: true },
        prj2: { name: 'Second', organization_ref: { ref: 'org' }, workspace_ref: { ref: 'wrk' } },
      },
      organization_memberships: {
        own: { organization_ref: { ref: 'org' }, user_ref: { ref: 'u1' }, role: 'owner' },
        m2: { organization_ref: { ref: 'org' }, user_ref: { ref: 'u2' }, role: 'viewer' },
      },
      project_memberships: { pm: { project_ref: { ref: 'prj2' }, user_ref: { ref: 'u2' }, role: 'editor' } },
      api_keys: { k: { project_ref: { ref: 'prj' }, user_ref: { ref: 'u2' } } },
    });
    expect(r.status).toBe(200);
    const acc = first(r);
    const [u1, u2] = [acc.users!.u1!, acc.users!.u2!];
    expect(u1).toMatchObject({ email: m1, name: 'One' });
    expect(acc.organizations!.org).toMatchObject({ name: 'Acme', owner_user_id: u1.id });
    expect(acc.workspaces!.wrk).toMatchObject({ name: 'Main', organization_id: acc.organizations!.org!.id });
    expect(acc.projects!.prj).toMatchObject({ name: 'App', is_default: true, workspace_id: acc.workspaces!.wrk!.id });
    expect(acc.projects!.prj2).toMatchObject({ name: 'Second', is_default: false });
    expect(acc.organization_memberships!.own).toMatchObject({ user_id: u1.id, role: 'owner' });
    expect(acc.organization_memberships!.m2).toMatchObject({ user_id: u2.id, role: 'viewer' });
    expect(acc.project_memberships!.pm).toMatchObject({ project_id: acc.projects!.prj2!.id, role: 'editor' });
    const key = acc.api_keys!.k!;
    expect(key).toMatchObject({ project_id: acc.projects!.prj!.id, user_id: u2.id });
    expect(await (await current(key.value as string)).json()).toMatchObject({ project_id: acc.projects!.prj!.id, user_role: 'viewer' });
    expect(r.body.errors).toBeUndefined();

    // Delete: a dry run (the default) only lists; then the user goes with the organization they own.
    const dry = await call('DELETE', '/admin/accounts/', { target: { user_emails: [m1, 'nobody@graph.example.com'] } });
    expect(dry.body).toMatchObject({ dry_run: true, deleted: { users: [{ id: u1.id }], organizations: [{ id: acc.organizations!.org!.id }] }, skipped: [{ kind: 'user', email: 'nobody@graph.example.com', reason: 'not_found' }] });
    expect((await current(key.value as string)).status).toBe(200);
    const alone = await call('DELETE', '/admin/accounts/', { target: { project_ids: [acc.projects!.prj2!.id, acc.projects!.prj!.id] }, dry_run: false });
    expect(alone.body).toMatchObject({ dry_run: false, deleted: { projects: [{ id: acc.projects!.prj2!.id }] }, errors: [{ code: 'project_default_kept' }] });
    const gone = await call('DELETE', '/admin/accounts/', { target: { user_ids: [u1.id as string] }, dry_run: false });
    expect(gone.body).toMatchObject({ dry_run: false, deleted: { users: [{ id: u1.id }], organizations: [{ id: acc.organizations!.org!.id }] } });
    expect((await current(key.value as string)).status).toBe(401);
  });

  it('given an existing e-mail, identities or a plan, when created, then the user is reused and the rest reported in errors (200)', async () => {
    const r = await call('POST', '/admin/accounts/', {
      users: { me: { email: a.email } },
      user_identities: { id1: { user_ref: { ref: 'me' }, method: 'email:password', subject: a.email, password: 'x' } },
      subscriptions: { elsewhere: { plan: 'cloud_v0_hobby' } },
    });
    expect(r.status).toBe(200);
    expect(first(r).users!.me).toMatchObject({ id: a.userId });
    expect((r.body.errors as Json[]).map((e) => e.code)).toEqual(['not_implemented', 'subscription_provision_failed']);
  });

  it('given bad graphs, then an undefined ref → 400, an organization without an owner → 400, a dry run → 400, a malformed organization id on delete → 400', async () => {
    const undefinedRef = await call('POST', '/admin/accounts/', { workspaces: { w: { name: 'W', organization_ref: { ref: 'nope' } } } });
    expect(undefinedRef.status).toBe(400);
    expect((undefinedRef.body.detail as Json).message).toBe("Invalid reference at 'workspaces.w.organization_ref': ref 'nope' is not defined in this request");
    expect(await call('POST', '/admin/accounts/', { organizations: { o: { name: 'Orphan' } } }))
      .toMatchObject({ status: 400, body: { detail: { message: "Organization 'o' requires a valid owner user." } } });
    expect((await call('POST', '/admin/accounts/', { options: { dry_run: true }, users: { u: { email: mail() } } })).status).toBe(400);
    expect((await call('DELETE', '/admin/accounts/', { target: { organization_ids: ['not-a-uuid'] } })).status).toBe(400);
  });
});
