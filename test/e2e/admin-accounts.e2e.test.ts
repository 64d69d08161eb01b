// Operator routes (compat §2): every path containing /admin/ takes only `Authorization: Access
// <ADMIN_TOKEN>`, checked before routing — the 24 admin paths of compat §2.3 (served or not) answer
// an unauthenticated call with 401 {"detail":{"message":"Unauthorized"}}, whatever the method's body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect((await fetch(`${t.baseUrl}/healthz`)).status).toBe(200);
    expect((await call('GET', '/no-such-route', {})).status).toBe(404);
  });
});
