// GET /access/plans: the plan catalog from configuration, for authenticated callers only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let acc: TestAccount;
beforeAll(async () => {
  t = await startTestApp({ ACCESS_PLANS: JSON.stringify({ team: { description: 'Team', flags: { sso: true, domains: false }, gauges: { users: { limit: 5, strict: true } } } }), ACCESS_DEFAULT_PLAN: 'team' });
  acc = await createAccount(t.baseUrl, t.adminToken);
});
afterAll(async () => { await t?.stop(); });

describe('access plans', () => {
  it('when an authenticated caller asks, then the configured catalog comes back with every quota field', async () => {
    const r = await fetch(`${t.baseUrl}/api/access/plans`, { headers: acc.auth });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      team: { description: 'Team', flags: { sso: true, domains: false }, gauges: { users: { free: null, limit: 5, strict: true, retention: null, scope: null, period: null } } },
    });
  });

  it('when nobody is authenticated, then 401', async () => {
    expect((await fetch(`${t.baseUrl}/access/plans`)).status).toBe(401);
  });
});
