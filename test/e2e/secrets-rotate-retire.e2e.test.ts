// Key rotation retires keys: after `npm run secrets:rotate` under the ring [B, A] and a rebuild of
// the accounts read model from the topic, a stack holding only B reads every secret back. Written
// under A: a vault secret, an SSO provider on the envelope (its own data key), and an SSO provider
// as providers were made before envelope encryption — its client secret sealed directly under A,
// appended to the log as such an old event was. The rebuild is docs/operations.md's: projector-accounts
// started against an empty database (the key store, which is not a projection, carried over).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { encodeEvent, topicsFor } from '@llm/events';
import { createKafkaClient, type KafkaClient } from '@llm/kafka';
import { encryptSecret, SecretsKeyring } from '@llm/oidc';
import { openPostgres, type Pool } from '@llm/postgres';
import { eventually } from '@llm/testing';
import { startTestOidcProvider, type TestOidcProvider } from '@llm/testing/oidc-provider';
import { createTestBrowser } from '@llm/testing/test-browser';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const ROTATE_MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../services/command/src/secrets-rotate-main.ts');
const letters = (n: number): string => Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');
const A = randomBytes(32);
const B = randomBytes(32);
const ringA = new SecretsKeyring([A]);
/** The key id a sealed value names (`v1.<key id>.<iv>.<ciphertext>.<tag>`). */
const keyIdOf = (sealed: string): string => sealed.split('.')[1] ?? '';

let before: TestApp | undefined;
let after: TestApp | undefined;
let idp: TestOidcProvider | undefined;
let kafka: KafkaClient | undefined;
let live: Pool | undefined;
let rebuilt: Pool | undefined;
afterAll(async () => {
  await after?.stop();
  await before?.stop();
  await idp?.close();
  await rebuilt?.end();
  await live?.end();
});

const freePort = (): Promise<number> => new Promise((resolve, reject) => {
  const s = createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
});

async function call(t: TestApp, method: string, p: string, auth: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${p}`, { method, headers: { ...auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), redirect: 'manual' });
  const text = await r.text();
  return { status: r.status, body: text && r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text || undefined };
}

function rotate(t: TestApp, ring: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ROTATE_MAIN], {
      env: {
        ...process.env, DATABASE_URL: t.databaseUrl, SECRETS_KEY: ring, KAFKA_BROKERS: t.kafkaBrokers, KAFKA_TOPIC_PREFIX: t.topicPrefix,
        KAFKA_SPANS_PARTITIONS: '3', KAFKA_ACCOUNTS_PARTITIONS: '1', DATA_DIR: path.join(inject('runDir'), `no-data-${letters(6)}`),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('secrets:rotate retires the old ring key', () => {
  let port: number;
  const orgSlug = `org-${letters(10)}`;
  // One person per provider: an existing account is not vouched for by a second provider.
  const person = (name: string) => ({ sub: `${name}-${letters(6)}`, password: letters(16), email: `${name}@${letters(6)}.example.net`, email_verified: true });
  const people = { envelope: person('lee'), legacy: person('kim') };
  const slugs = { envelope: `env-${letters(6)}`, legacy: `old-${letters(6)}` };
  const envelopeClient = { client_id: `envelope-${letters(4)}`, client_secret: randomBytes(24).toString('base64url'), redirect_uris: [] as string[] };
  const legacyClient = { client_id: `legacy-${letters(4)}`, client_secret: randomBytes(24).toString('base64url'), redirect_uris: [] as string[] };

  beforeAll(async () => {
    port = await freePort();
    const outbound = { OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true', PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
    before = await startTestApp({ ...outbound, SECRETS_KEY: A.toString('base64') });
    envelopeClient.redirect_uris = [`http://127.0.0.1:${port}/auth/sso/callback/${orgSlug}/${slugs.envelope}`];
    legacyClient.redirect_uris = [`http://127.0.0.1:${port}/auth/sso/callback/${orgSlug}/${slugs.legacy}`];
    idp = await startTestOidcProvider({ clients: [envelopeClient, legacyClient], accounts: [people.envelope, people.legacy] });
    kafka = await createKafkaClient({ brokers: [before.kafkaBrokers], clientId: 'rotate-retire-test' });
    live = openPostgres(before.databaseUrl);
  }, 120_000);

  it('when a legacy SSO secret, an envelope SSO secret and a vault secret were written under A, then after rotating to [B, A] and a rebuild, a stack on B alone reads them all and signs in through both providers', async () => {
    const t0 = before!;
    const admin = { Authorization: `Access ${t0.adminToken}` };
    // The projector's first join of fresh topics can outlast a command's wait on a loaded machine:
    // one throwaway write (answered 200, or 503 while it catches up) and its projection first.
    const warmup = await call(t0, 'POST', '/admin/simple/accounts/users/', admin, { options: { seed_defaults: false }, user: { email: `${letters(10)}@warmup.example.org` } });
    expect([200, 503]).toContain(warmup.status);
    await eventually(async () => Number((await live!.query("SELECT count(*) AS n FROM events WHERE status = 'applied'")).rows[0].n), (n) => n > 0, 60_000);
    const owner = await call(t0, 'POST', '/admin/simple/accounts/', admin, {
      accounts: { u: { user: { email: `${letters(10)}@owner.example.com` }, organization: { name: 'Rotated', slug: orgSlug } } },
    });
    expect({ status: owner.status, body: owner.status === 200 ? undefined : owner.body }).toEqual({ status: 200, body: undefined });
    const acc = owner.body.accounts.u;
    const orgId: string = acc.organizations.org.id;
    const auth = { Authorization: `ApiKey ${acc.api_keys.key}` };
    expect((await call(t0, 'PATCH', `/organizations/${orgId}`, auth, { flags: { allow_email: true } })).status).toBe(200);

    // A vault secret whose value reads back, on the envelope since the start.
    const hookKey = `whsec-${randomBytes(16).toString('hex')}`;
    const vault = await call(t0, 'POST', '/secrets/', auth, { header: { name: 'kept' }, secret: { kind: 'webhook_provider', data: { provider: { key: hookKey } } }, write_only: false });
    expect(vault.status).toBe(200);
    // An SSO provider made through the API: its secret under its own data key, wrapped under A.
    const env = await call(t0, 'POST', '/organizations/providers/', auth, {
      slug: slugs.envelope, settings: { issuer_url: idp!.issuer, client_id: envelopeClient.client_id, client_secret: envelopeClient.client_secret },
    });
    expect(env.status).toBe(200);
    expect((await call(t0, 'POST', `/organizations/providers/${env.body.id}/test`, auth)).body.flags).toMatchObject({ is_active: true });
    // An SSO provider as an older release recorded it: the client secret sealed directly under A
    // (no context, no key-store row), tested and active.
    const legacyId = randomUUID();
    const topics = topicsFor({ prefix: t0.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const producer = await kafka!.producer();
    const legacyEvent = randomUUID();
    await producer.send(topics.accounts, [{
      key: `organization:${orgId}`,
      value: encodeEvent('accounts.provider.created', {
        provider: {
          provider_id: legacyId, organization_id: orgId, slug: slugs.legacy, name: 'Legacy', description: '', flags_json: '{"is_valid":true,"is_active":true}',
          issuer_url: idp!.issuer, client_id: legacyClient.client_id, client_secret_sealed: encryptSecret(legacyClient.client_secret, ringA), scopes: [], extra_json: '{}',
        },
      }, { eventId: legacyEvent, organizationId: orgId, aggregateId: `organization:${orgId}` }),
    }]);
    await producer.close();
    const outcome = await eventually(async () => (await live!.query('SELECT status FROM events WHERE event_id = $1', [legacyEvent])).rows[0]?.status, (s) => s !== undefined, 30_000);
    expect(outcome).toBe('applied');
    const sealedNow = async (pool: Pool): Promise<Map<string, string>> =>
      new Map((await pool.query<{ id: string; s: string }>('SELECT id::text, client_secret_sealed AS s FROM organization_providers WHERE organization_id = $1', [orgId])).rows.map((r) => [r.id, r.s]));
    expect(keyIdOf((await sealedNow(live!)).get(legacyId)!)).toBe(ringA.currentKeyId);

    // The new key first, the old one after it; then the rotation.
    const rotated = await rotate(t0, `${B.toString('base64')},${A.toString('base64')}`);
    expect({ code: rotated.code, stderr: rotated.stderr }).toEqual({ code: 0, stderr: '' });
    expect(rotated.stdout).toMatch(/SSO client secrets: re-sealed 1 under their data key, already on it 1, failed 0/);
    expect(rotated.stdout).toMatch(/older keys may leave SECRETS_KEY/);
    // The live read model already holds no value sealed under A.
    for (const s of (await sealedNow(live!)).values()) expect(keyIdOf(s)).not.toBe(ringA.currentKeyId);
    const keyStore = (await live!.query<{ secret_id: string; owner_id: string; wrapped_key: string }>('SELECT secret_id::text, owner_id::text, wrapped_key FROM secret_keys')).rows;
    expect(keyStore).toHaveLength(3);
    for (const k of keyStore) expect(keyIdOf(k.wrapped_key)).toBe(new SecretsKeyring([B]).currentKeyId);
    const liveEvents = Number((await live!.query('SELECT count(*) AS n FROM events')).rows[0].n);
    await before!.stop();
    before = undefined;

    // A stack holding only B, rebuilding the accounts read model from the topic into an empty
    // database; the key store is restored beside it (backed up with Postgres, never rebuilt).
    const dbName = `retire_${letters(8)}`;
    const server = new pg.Client({ connectionString: t0.databaseUrl });
    await server.connect();
    await server.query(`CREATE DATABASE ${dbName}`);
    await server.end();
    const rebuiltUrl = t0.databaseUrl.replace(/\/[^/]*$/, `/${dbName}`);
    after = await startTestApp({
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true', PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, PORT: String(port),
      SECRETS_KEY: B.toString('base64'), DATABASE_URL: rebuiltUrl, KAFKA_TOPIC_PREFIX: t0.topicPrefix, ACCOUNTS_PLATFORM_FACTS: 'false',
    });
    rebuilt = openPostgres(rebuiltUrl);
    for (const k of keyStore) await rebuilt.query('INSERT INTO secret_keys (secret_id, owner_id, wrapped_key) VALUES ($1, $2, $3)', [k.secret_id, k.owner_id, k.wrapped_key]);
    await eventually(async () => Number((await rebuilt!.query('SELECT count(*) AS n FROM events')).rows[0].n), (n) => n === liveEvents, 60_000);
    const t1 = after;

    // Nothing in the rebuilt read model names the old key, and it matches the live one.
    const rebuiltSealed = await sealedNow(rebuilt);
    expect(rebuiltSealed).toEqual(await sealedNow(live!));
    for (const s of rebuiltSealed.values()) expect(keyIdOf(s)).not.toBe(ringA.currentKeyId);
    // The vault secret reads back.
    const read = await call(t1, 'GET', `/secrets/${vault.body.id}`, auth);
    expect(read.status).toBe(200);
    expect(read.body.data.provider.key).toBe(hookKey);
    // Both providers sign someone in: each client secret opens under B and the IdP accepts it.
    for (const which of ['envelope', 'legacy'] as const) {
      const slug = slugs[which];
      const who = people[which];
      const browser = createTestBrowser();
      const started = await browser.follow(`${t1.baseUrl}/auth/sso/start/${orgSlug}/${slug}`, { stopAt: (u) => u.origin === idp!.issuer });
      const back = await idp!.signIn(started.url, { login: who.sub, password: who.password });
      await browser.follow(back, { stopAt: (u) => u.origin === t1.baseUrl && u.pathname === '/' });
      const cookie = [...browser.cookiesFor(t1.baseUrl)].map(([k, v]) => `${k}=${v}`).join('; ');
      const session = await call(t1, 'GET', '/auth/session', { Cookie: cookie });
      expect({ slug, status: session.status, email: session.body?.email }).toEqual({ slug, status: 200, email: who.email });
    }
  }, 300_000);
});
