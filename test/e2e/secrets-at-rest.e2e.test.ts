// No secret value at rest in clear: after a real run of vault writes, every file of the run's data
// directory (Kafka segments, Postgres heap and WAL, ClickHouse) is searched for the value's bytes.
// A marker written in clear beside it (the secret's name) must be found in the Kafka and Postgres
// files, which shows the search reaches both stores.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  a = await createAccount(t.baseUrl, t.adminToken);
});
afterAll(async () => { await t?.stop(); });

async function call(method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${p}`, { method, headers: { ...a.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

/** Files under `dir` (recursively) whose bytes contain `needle`, as paths relative to `dir`. */
function filesContaining(dir: string, needles: Buffer[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      let st;
      try { st = statSync(p); } catch { continue; }
      if (st.isDirectory()) { walk(p); continue; }
      if (!st.isFile() || st.size === 0) continue;
      let bytes: Buffer;
      try { bytes = readFileSync(p); } catch { continue; }
      for (const n of needles) if (bytes.includes(n)) found.set(n.toString(), [...(found.get(n.toString()) ?? []), path.relative(dir, p)]);
    }
  };
  walk(dir);
  return found;
}

describe('secrets at rest', () => {
  it('when secrets are written, read, changed and deleted, then no file of the data directory holds a value in clear', async () => {
    const marker = `vault-marker-${randomBytes(8).toString('hex')}`;
    const values = [`sk-${randomBytes(20).toString('hex')}`, `whsec-${randomBytes(20).toString('hex')}`, `content-${randomBytes(20).toString('hex')}`, `sso-${randomBytes(20).toString('hex')}`];
    const one = await call('POST', '/secrets/', { header: { name: marker }, secret: { kind: 'provider_key', data: { kind: 'openai', provider: { key: values[0] } } } });
    expect(one.status).toBe(200);
    const two = await call('POST', '/secrets/', { header: { name: `${marker}-2` }, secret: { kind: 'webhook_provider', data: { provider: { key: values[1] } } }, write_only: false });
    expect(two.body.data.provider.key).toBe(values[1]);
    expect((await call('PUT', `/secrets/${one.body.id}`, { header: { name: `${marker}-3` }, secret: { kind: 'provider_key', data: { kind: 'openai', provider: {} } } })).status).toBe(200);
    const three = await call('POST', '/secrets/', { header: { name: `${marker}-4` }, secret: { kind: 'custom_secret', data: { secret: { format: 'text', content: values[2] } } } });
    expect((await call('DELETE', `/secrets/${three.body.id}`)).status).toBe(204);
    // An SSO provider's client secret is on the same envelope: sealed under its own data key, shredded with the provider.
    expect((await call('PATCH', `/organizations/${a.organizationId}`, { flags: { allow_email: true } })).status).toBe(200);
    const provider = await call('POST', '/organizations/providers/', { slug: `p-${[...randomBytes(4)].map((b) => String.fromCharCode(97 + (b % 26))).join('')}`, settings: { issuer_url: 'https://idp.example.com', client_id: marker, client_secret: values[3] } });
    expect(provider.status).toBe(200);
    expect(JSON.stringify(provider.body)).not.toContain(values[3]);
    expect((await call('DELETE', `/organizations/providers/${provider.body.id}`)).status).toBe(204);
    // A refused request must not leave its credential anywhere either (nor echo it).
    const refused = await call('POST', '/secrets/', { header: { name: 'x' }, secret: { kind: 'custom_provider', data: { kind: 'custom', provider: { url: 'http://10.0.0.1/', key: values[0] }, models: [] } } });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).not.toContain(values[0]);

    const runDir = inject('runDir');
    const found = filesContaining(runDir, [marker, ...values].map((s) => Buffer.from(s, 'utf8')));
    const where = found.get(marker) ?? [];
    expect(where.some((f) => f.startsWith('kafka'))).toBe(true);
    expect(where.some((f) => f.startsWith('postgres'))).toBe(true);
    for (const v of values) expect({ value: v.slice(0, 8), files: found.get(v) ?? [] }).toEqual({ value: v.slice(0, 8), files: [] });
  }, 120_000);
});
