// Organization features need their plan flags (`domains`, `sso`, `access`, `audit`): an organization on a plan
// without them gets a 403 naming the upgrade.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

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

  it('when the plan lacks the sso and access flags, then providers and auth flags are 403, other settings are not', async () => {
    const c = await createAccount(t.baseUrl, t.adminToken);
    const send = (method: string, path: string, body?: unknown) => fetch(`${t.baseUrl}${path}`, { method, headers: { ...c.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    for (const [method, path] of [['GET', '/organizations/providers/'], ['POST', '/organizations/providers/']] as const) {
      const r = await send(method, path, method === 'POST' ? { slug: 'okta', settings: { issuer_url: 'https://idp.example.com', client_id: 'c', client_secret: 's' } } : undefined);
      expect(r.status).toBe(403);
    }
    const flags = await send('PATCH', `/organizations/${c.organizationId}`, { flags: { allow_root: true } });
    expect(flags.status).toBe(403);
    expect(await flags.json()).toEqual({ detail: 'You do not have access to this feature. Please upgrade your plan to continue.' });
    expect((await send('PATCH', `/organizations/${c.organizationId}`, { name: 'Still allowed' })).status).toBe(200);
  });

  it('when the plan lacks the audit flag, then the events log is 403 with the upgrade message (webhooks need no flag)', async () => {
    const c = await createAccount(t.baseUrl, t.adminToken);
    const send = (path: string, body: unknown) => fetch(`${t.baseUrl}${path}`, { method: 'POST', headers: { ...c.auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const r = await send('/events/query', {});
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ detail: 'You do not have access to this feature. Please upgrade your plan to continue.' });
    expect((await send('/webhooks/subscriptions/query', {})).status).toBe(200);
  });
});
