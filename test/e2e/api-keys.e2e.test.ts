// API keys of a project end to end: create (the raw key once), list (never a secret), use, revoke
// (refused at once), expiry, tenancy and bad input.
import { randomBytes } from 'node:crypto';
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

async function call(method: string, path: string, auth: { Authorization: string }, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const keyAuth = (key: string) => ({ Authorization: `ApiKey ${key}` });
/** A read and a write through the key: both must agree on whether it works. */
const works = async (key: string): Promise<[number, number]> => [
  (await call('GET', `/traces/${randomBytes(16).toString('hex')}`, keyAuth(key))).status,
  (await call('GET', '/keys', keyAuth(key))).status,
];

describe('API keys', () => {
  it('when a key is created, used, listed and revoked, then it works until the revocation and never again', async () => {
    const created = await call('POST', '/keys', a.auth, { name: 'CI exporter' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'CI exporter', project_id: a.projectId, created_by: a.userId, status: 'active', expires_at: null, revoked_at: null });
    expect(created.body.key).toMatch(/^[A-Za-z0-9]{8}\.[0-9a-f]{64}$/);
    expect(created.body.key.startsWith(`${created.body.prefix}.`)).toBe(true);
    expect(await works(created.body.key)).toEqual([200, 200]);

    const listed = await call('GET', '/keys', a.auth);
    const mine = listed.body.find((k: { id: string }) => k.id === created.body.id);
    expect(mine).toMatchObject({ prefix: created.body.prefix, status: 'active' });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key.split('.')[1]);
    expect(listed.body.every((k: Record<string, unknown>) => !('key' in k) && !('secret_hash' in k))).toBe(true);

    expect((await call('DELETE', `/keys/${created.body.id}`, a.auth)).status).toBe(204);
    expect(await works(created.body.key)).toEqual([401, 401]);
    expect((await call('GET', '/keys', a.auth)).body.find((k: { id: string }) => k.id === created.body.id).status).toBe('revoked');
    // Revoking by prefix works too, and twice is not an error.
    expect((await call('DELETE', `/keys/${created.body.prefix}`, a.auth)).status).toBe(204);
  });

  it('when a key expires, then it stops working even if it was just used', async () => {
    const created = await call('POST', '/keys', a.auth, { expires_at: new Date(Date.now() + 1500).toISOString() });
    expect(created.body.expires_at).not.toBeNull();
    expect((await works(created.body.key))[0]).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    expect(await works(created.body.key)).toEqual([401, 401]);
    expect((await call('GET', '/keys', a.auth)).body.find((k: { id: string }) => k.id === created.body.id).status).toBe('expired');
  });

  it("when another project's key is addressed, then it does not exist", async () => {
    const created = await call('POST', '/keys', a.auth, {});
    expect(await call('DELETE', `/keys/${created.body.id}`, b.auth)).toEqual({ status: 404, body: { detail: 'API key not found' } });
    expect((await call('GET', '/keys', b.auth)).body.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
    expect((await works(created.body.key))[1]).toBe(200);
  });

  it('when the body is malformed, then 422 naming the field', async () => {
    for (const body of [{ expires_at: '2020-01-01T00:00:00Z' }, { expires_at: 'tomorrow' }, { name: 'x'.repeat(101) }, { scope: 'admin' }]) {
      const r = await call('POST', '/keys', a.auth, body);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe('body');
    }
    expect((await call('POST', '/keys', { Authorization: 'ApiKey nope' }, {})).status).toBe(401);
  });
});
