// Organization domains need the plan's `domains` flag: an organization on a plan without it gets a 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestApp, type TestApp } from '@llm/testing';

let t: TestApp;
beforeAll(async () => { t = await startTestApp({ ACCESS_DEFAULT_PLAN: 'cloud_v0_hobby' }); });
afterAll(async () => { await t?.stop(); });

describe('entitlement', () => {
  it('when the plan lacks the domains flag, then 403 with the upgrade message', async () => {
    const c = await createAccount(t.baseUrl, t.adminToken);
    for (const [method, path] of [['GET', '/organizations/domains/'], ['POST', '/organizations/domains/']] as const) {
      const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...c.auth, 'Content-Type': 'application/json' }, ...(method === 'POST' ? { body: JSON.stringify({ domain: 'a.example.org' }) } : {}) });
      expect(r.status).toBe(403);
      expect(await r.json()).toEqual({ detail: 'You do not have access to this feature. Please upgrade your plan to continue.' });
    }
  });
});
