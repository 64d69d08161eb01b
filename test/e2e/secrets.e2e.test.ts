// The vault end to end (reference accounts §6): every kind, write-only previews, slugs and provider
// key names, PUT keeping the stored value, tenancy, the /vault/v1 alias — and encryption: no value in
// clear in the topic or the tables, and after DELETE the sealed value cannot be opened any more.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { createSessionCodec } from '@llm/web-session';
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

async function call(method: string, path: string, acc: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const unique = (): string => `sk-${randomBytes(16).toString('hex')}`;
const providerKey = (key: string, extra: object = {}) => ({ header: {}, secret: { kind: 'provider_key', data: { kind: 'openai', provider: { key } } }, ...extra });

describe('vault secrets', () => {
  it('when provider keys are created, then they are named after the provider, slugged, write-only with a preview, and never echoed', async () => {
    const value = unique();
    const first = await call('POST', '/secrets/', a, providerKey(value));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ kind: 'provider_key', header: { name: 'OpenAI' }, write_only: true, data: { kind: 'openai', provider: {} } });
    expect(first.body.value_status).toEqual({ configured: true, preview: `${value.slice(0, 3)}****${value.slice(-3)}` });
    expect(first.body.slug).toMatch(/^openai-[0-9a-f]{12}$/);
    expect(JSON.stringify(first.body)).not.toContain(value);
    const second = await call('POST', '/secrets/', a, providerKey(unique()));
    expect(second.body.header.name).toBe('OpenAI 2');
    const list = await call('GET', '/secrets/', a);
    expect(list.status).toBe(200);
    expect(list.body.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining([first.body.id, second.body.id]));
    expect(JSON.stringify(list.body)).not.toContain(value);
    expect((await call('GET', `/secrets/${first.body.slug}`, a)).body.id).toBe(first.body.id);
    expect((await call('GET', `/vault/v1/secrets/${first.body.id.toUpperCase()}`, a)).body.id).toBe(first.body.id);
  });

  it('when a secret is not write-only, then its value is returned; short values preview as ****', async () => {
    const s = await call('POST', '/secrets/', a, { header: { name: 'cfg' }, secret: { kind: 'custom_secret', data: { secret: { format: 'json', content: { token: 'abc', n: 1 } } } }, write_only: false });
    expect(s.status).toBe(200);
    expect(s.body.data).toEqual({ secret: { format: 'json', content: { token: 'abc', n: 1 } } });
    const short = await call('POST', '/secrets/', a, { header: { name: 'short' }, secret: { kind: 'webhook_provider', data: { provider: { key: 'tiny' } } } });
    expect(short.body.value_status).toEqual({ configured: true, preview: '****' });
  });

  it('when a secret is updated without its value, then the stored value stays; a kind change needs a value', async () => {
    const value = unique();
    const s = await call('POST', '/secrets/', a, { header: { name: 'hook' }, secret: { kind: 'webhook_provider', data: { provider: { key: value } } }, write_only: false });
    const renamed = await call('PUT', `/secrets/${s.body.id}`, a, { header: { name: 'hook 2' }, secret: { kind: 'webhook_provider', data: { provider: {} } } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ header: { name: 'hook 2' }, data: { provider: { key: value } } });
    expect((await call('PUT', `/secrets/${s.body.id}`, a, { secret: { kind: 'custom_secret', data: { secret: { format: 'text' } } } })).status).toBe(400);
    expect((await call('PUT', `/secrets/${s.body.id}`, a, { secret: { kind: 'webhook_provider', data: { provider: { key: '' } } } })).status).toBe(400);
    expect((await call('PUT', `/secrets/${s.body.id}`, a, { write_only: true })).status).toBe(422);
    expect((await call('PUT', `/secrets/not-a-uuid`, a, { header: { name: 'x' } })).status).toBe(422);
    expect((await call('DELETE', `/secrets/not-a-uuid`, a)).status).toBe(422);
    expect((await call('GET', `/secrets/${s.body.id.replace(/-/g, '')}`, a)).body.id).toBe(s.body.id);
    expect((await call('GET', '/secrets/%00', a)).status).toBe(404);
  });

  it('when bad input arrives, then it gets 4xx and no value in the body', async () => {
    const value = unique();
    const noValue = await call('POST', '/secrets/', a, { header: { name: 'x' }, secret: { kind: 'webhook_provider', data: { provider: {} } } });
    expect(noValue.status).toBe(422);
    const badUrl = await call('POST', '/secrets/', a, { header: { name: 'c' }, secret: { kind: 'custom_provider', data: { kind: 'custom', provider: { url: 'https://127.0.0.1/v1', key: value }, models: [{ slug: 'm' }] } } });
    expect(badUrl.status).toBe(422);
    expect(JSON.stringify(badUrl.body)).toMatch(/custom_provider\.url is invalid/);
    expect(JSON.stringify(badUrl.body)).not.toContain(value);
    expect((await call('POST', '/secrets/', a, { header: { name: 'x' }, secret: { kind: 'nope', data: {} } })).status).toBe(422);
    expect((await call('POST', '/secrets/', a, { ...providerKey(value), managed_by: 'me' })).status).toBe(400);
    const taken = await call('POST', '/secrets/', a, providerKey(unique(), { slug: `dup-${randomBytes(3).toString('hex')}` }));
    expect((await call('POST', '/secrets/', a, providerKey(unique(), { slug: taken.body.slug }))).status).toBe(409);
    const custom = await call('POST', '/secrets/', a, { header: { name: 'My Bedrock' }, secret: { kind: 'custom_provider', data: { kind: 'bedrock', provider: { extras: { aws_access_key_id: value, region: 'eu' } }, models: [{ slug: 'claude' }] } } });
    expect(custom.status).toBe(200);
    expect(custom.body.data).toMatchObject({ provider_slug: 'my-bedrock', model_keys: ['my-bedrock/claude'], provider: { extras: { region: 'eu' } } });
    expect(JSON.stringify(custom.body)).not.toContain(value);
  });

  it("when another project asks, then its secrets are a 404 and not listed", async () => {
    const s = await call('POST', '/secrets/', a, providerKey(unique()));
    expect((await call('GET', `/secrets/${s.body.id}`, b)).status).toBe(404);
    expect((await call('PUT', `/secrets/${s.body.id}`, b, { header: { name: 'x' } })).status).toBe(404);
    expect((await call('GET', '/secrets/', b)).body.map((x: { id: string }) => x.id)).not.toContain(s.body.id);
  });

  it('when a secret is deleted, then its key is destroyed: the sealed value left in the log and tables cannot be opened', async () => {
    const value = unique();
    const s = await call('POST', '/secrets/', a, providerKey(value));
    // Nothing in clear in the event log or the read model.
    const rows = await db.query("SELECT payload::text AS p FROM events WHERE type LIKE 'accounts.secret.%'");
    expect(rows.rows.map((r) => r.p).join('\n')).not.toContain(value);
    const stored = await db.query('SELECT sealed_data, public_data::text AS pub FROM secrets WHERE id = $1', [s.body.id]);
    expect(stored.rows[0].sealed_data).toMatch(/^v1\./);
    expect(stored.rows[0].sealed_data + stored.rows[0].pub).not.toContain(value);
    expect((await db.query('SELECT 1 FROM secret_keys WHERE secret_id = $1', [s.body.id])).rowCount).toBe(1);
    expect((await call('DELETE', `/secrets/${s.body.id}`, a)).status).toBe(204);
    expect((await call('GET', `/secrets/${s.body.id}`, a)).status).toBe(404);
    expect((await db.query('SELECT 1 FROM secret_keys WHERE secret_id = $1', [s.body.id])).rowCount).toBe(0);
    await eventually(async () => (await db.query("SELECT count(*)::int AS n FROM events WHERE type = 'accounts.secret.deleted' AND payload->>'secret_id' = $1", [s.body.id])).rows[0].n, (n) => n === 1);
    expect((await call('DELETE', `/secrets/${s.body.id}`, a)).status).toBe(204);
  });

  it('when an SSO provider is created and deleted, then its client secret has a data key in the key store, destroyed with it', async () => {
    expect((await call('PATCH', `/organizations/${a.organizationId}`, a, { flags: { allow_email: true } })).status).toBe(200);
    const value = unique();
    const p = await call('POST', '/organizations/providers/', a, { slug: `okta-${[...randomBytes(4)].map((b) => String.fromCharCode(97 + (b % 26))).join('')}`, settings: { issuer_url: 'https://idp.example.com', client_id: 'c', client_secret: value } });
    expect(p.status).toBe(200);
    const key = await db.query('SELECT owner_id::text AS owner FROM secret_keys WHERE secret_id = $1', [p.body.id]);
    expect(key.rows).toEqual([{ owner: a.organizationId }]);
    const sealed = await db.query('SELECT client_secret_sealed AS s FROM organization_providers WHERE id = $1', [p.body.id]);
    expect(sealed.rows[0].s).toMatch(/^v1\./);
    expect(sealed.rows[0].s).not.toContain(value);
    expect((await call('DELETE', `/organizations/providers/${p.body.id}`, a)).status).toBe(204);
    expect((await db.query('SELECT 1 FROM secret_keys WHERE secret_id = $1', [p.body.id])).rowCount).toBe(0);
  });

  it('when the caller is a viewer, then secrets can be read but not written; an editor may write; no credentials, 401', async () => {
    const s = await call('POST', '/secrets/', a, providerKey(unique()));
    const v = await createAccount(t.baseUrl, t.adminToken);
    const setRole = (role: string) => fetch(`${t.baseUrl}/admin/simple/accounts/organizations/memberships/`, {
      method: 'POST', headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ organization_id: a.organizationId, user: { id: v.userId }, role }),
    });
    expect((await setRole('viewer')).status).toBe(200);
    const sessions = createSessionCodec({ secrets: t.secrets.SESSION_SECRETS.split(','), secure: false });
    const cookie = { Cookie: `${sessions.cookieName}=${sessions.issue({ user_id: v.userId, email: v.email, identities: ['email:otp'] }).token}` };
    const as = async (method: string, p: string, body?: unknown) => {
      const r = await fetch(`${t.baseUrl}${p}${p.includes('?') ? '&' : '?'}project_id=${a.projectId}`, { method, headers: { ...cookie, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      return r.status;
    };
    expect(await as('GET', '/secrets/')).toBe(200);
    expect(await as('GET', `/secrets/${s.body.id}`)).toBe(200);
    expect(await as('POST', '/secrets/', providerKey(unique()))).toBe(403);
    expect(await as('PUT', `/secrets/${s.body.id}`, { header: { name: 'x' } })).toBe(403);
    expect(await as('DELETE', `/secrets/${s.body.id}`)).toBe(403);
    expect((await setRole('editor')).status).toBe(200);
    expect(await as('PUT', `/secrets/${s.body.id}`, { header: { name: 'x' } })).toBe(200);
    expect((await fetch(`${t.baseUrl}/secrets/`)).status).toBe(401);
  });
});
