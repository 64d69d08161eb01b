// Webhook subscriptions and the test delivery end to end (reference accounts §9.1–§9.3, §9.5, §14):
// the reference's acceptance behaviours, tenancy, permissions, the signing secret kept in the vault
// (and deleted with its subscription), UUIDv7 paging, and test deliveries to real loopback
// receivers — one verifying the signature over the raw bytes it received, one answering 500 — a
// draft that persists nothing, and a URL the outbound guard refuses; a PUT whose change is refused
// leaves the vault secret as it was (the route run in-process over commands that refuse it); a query
// answers at most 1,000 subscriptions.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Request, Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicsFor } from '@llm/events';
import { createKafkaClient, type Producer } from '@llm/kafka';
import { parseSecretsKeys } from '@llm/oidc';
import { createOutboundClient } from '@llm/outbound';
import { openPostgres } from '@llm/postgres';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { AccountAppender } from '../../services/command/src/accounts/adapters/account-appender.ts';
import { AccountCommands, type AccountChange, type CommandOutcome } from '../../services/command/src/accounts/adapters/account-commands.ts';
import type { AccountsEventType } from '../../services/command/src/accounts/adapters/account-appender.ts';
import { webhookRoutes } from '../../services/command/src/webhooks/http/webhook-routes.ts';
import { verifySignature } from '@llm/webhooks';
import { createSessionCodec } from '@llm/web-session';
import { startTestApp, type TestApp } from '../support/test-app.ts';

interface Received { headers: http.IncomingHttpHeaders; raw: Buffer; path: string }

/** A loopback receiver: keeps every request's raw bytes; answers what `status()` says. */
async function startReceiver(status: (r: Received) => number = () => 200): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, raw: Buffer.concat(chunks), path: req.url ?? '' };
      received.push(r);
      res.writeHead(status(r), { 'Content-Type': 'text/plain' }).end('got it');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

let t: TestApp;
let a: TestAccount;
let b: TestAccount;
let db: pg.Pool;
let ok: Awaited<ReturnType<typeof startReceiver>>;
let failing: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  [ok, failing] = await Promise.all([startReceiver(), startReceiver(() => 500)]);
  t = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true' });
  [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
});
afterAll(async () => { await db?.end(); await t?.stop(); await ok?.close(); await failing?.close(); });

async function call(method: string, path: string, acc: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const marker = (): string => randomBytes(6).toString('hex');
const create = (acc: TestAccount, subscription: Record<string, unknown>) => call('POST', '/webhooks/subscriptions/', acc, { subscription });
const hook = (extra: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({ name: `hook ${marker()}`, ...extra, data: { url: `${ok.url}/hook`, ...data } });
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ZERO = '00000000-0000-0000-0000-000000000000';

describe('webhook subscriptions', () => {
  it('when a subscription is created, then it is active, has a generated 32-character secret, and echoes its data without nulls', async () => {
    const r = await create(a, { data: { url: `${ok.url}/x`, event_types: ['traces.queried', 'webhooks.subscriptions.tested'] }, flags: { is_active: false } });
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(1);
    const s = r.body.subscription;
    expect(s.id).toMatch(UUID_V7);
    expect(s.secret).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(s.flags).toEqual({ is_active: true });
    expect(s.data).toEqual({ url: `${ok.url}/x`, auth_mode: 'signature', event_types: ['traces.queried', 'webhooks.subscriptions.tested'] });
    for (const k of ['name', 'description', 'tags', 'meta']) expect(s).not.toHaveProperty(k);
    expect(s.secret_id).toMatch(/^[0-9a-f-]{36}$/);
    const got = await call('GET', `/webhooks/subscriptions/${s.id}`, a);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ count: 1, subscription: s });
    expect((await call('GET', `/webhooks/subscriptions/${s.id.toUpperCase()}`, a)).body.subscription.id).toBe(s.id);
    // Two creates never share a secret.
    expect((await create(a, hook())).body.subscription.secret).not.toBe(s.secret);
  });

  it('when authorization mode is asked for, then the caller secret is kept, and without one it is a 400', async () => {
    const secret = `Bearer ${marker()}`;
    const r = await create(a, hook({ secret }, { auth_mode: 'authorization' }));
    expect(r.status).toBe(200);
    expect(r.body.subscription).toMatchObject({ secret, data: { auth_mode: 'authorization' } });
    const none = await create(a, hook({}, { auth_mode: 'authorization' }));
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ detail: "A secret is required when auth_mode is 'authorization'" });
    const signed = await create(a, hook({ secret: 'my-own-signing-secret' }, { auth_mode: 'signature' }));
    expect(signed.body.subscription).toMatchObject({ secret: 'my-own-signing-secret', data: { auth_mode: 'signature' } });
    // The secret becomes a header value: a line break or a control character is refused when written, on create and on edit.
    for (const bad of ['Bearer a\r\nX-Injected: 1', 'tab\u0001ok', 'café']) {
      const refused = await create(a, hook({ secret: bad }, { auth_mode: 'authorization' }));
      expect(refused.status).toBe(400);
      const edit = await call('PUT', `/webhooks/subscriptions/${r.body.subscription.id}`, a, { subscription: { id: r.body.subscription.id, secret: bad, data: { url: `${ok.url}/x`, auth_mode: 'authorization' } } });
      expect(edit.status).toBe(400);
    }
    // Tags and meta travel in every delivery: each is bounded (64 KiB of JSON).
    const big = await create(a, hook({ meta: { blob: 'x'.repeat(70_000) } }));
    expect(big.status).toBe(422);
    expect(big.body.detail[0].loc).toEqual(['body', 'subscription', 'meta']);
  });

  it('when payload_fields is given, then the template round-trips; an unusable template or an unknown event type is a 422', async () => {
    const payload_fields = { id: '$.event.event_id', kind: '/event/event_type', fixed: 'literal', nested: { list: ['$.scope.project_id', 1, null] } };
    const r = await create(a, hook({ tags: { team: 'ml' }, meta: { free: [1, 2] }, description: 'the one' }, { payload_fields, headers: { 'X-Team': 'ml' } }));
    expect(r.status).toBe(200);
    const got = await call('GET', `/webhooks/subscriptions/${r.body.subscription.id}`, a);
    expect(got.body.subscription).toMatchObject({ tags: { team: 'ml' }, meta: { free: [1, 2] }, description: 'the one', data: { payload_fields, headers: { 'X-Team': 'ml' } } });
    let deep: unknown = 'x';
    for (let i = 0; i < 11; i++) deep = { d: deep };
    const tooDeep = await create(a, hook({}, { payload_fields: deep }));
    expect(tooDeep.status).toBe(422);
    expect(tooDeep.body.detail[0].loc).toEqual(['body', 'subscription', 'data', 'payload_fields']);
    expect((await create(a, hook({}, { event_types: ['traces.queried', 'nope.nope'] }))).status).toBe(422);
    expect((await create(a, hook({}, { url: 'ftp://example.com/x' }))).status).toBe(422);
    expect((await create(a, { name: 'no data' })).status).toBe(422);
  });

  it('when an unknown or malformed id is asked for, then it is a 404 or a 422', async () => {
    const unknown = randomUUID();
    const got = await call('GET', `/webhooks/subscriptions/${unknown}`, a);
    expect(got.status).toBe(404);
    expect(got.body).toEqual({ detail: 'Webhook subscription not found' });
    expect((await call('GET', '/webhooks/subscriptions/not-a-uuid', a)).status).toBe(422);
    expect((await call('PUT', `/webhooks/subscriptions/${unknown}`, a, { subscription: { id: unknown, data: { url: ok.url } } })).status).toBe(404);
    expect((await call('DELETE', `/webhooks/subscriptions/${unknown}`, a)).status).toBe(404);
    expect((await call('POST', `/webhooks/subscriptions/${unknown}/start`, a)).status).toBe(404);
    expect((await call('POST', `/webhooks/subscriptions/${unknown}/stop`, a)).status).toBe(404);
  });

  it('when a subscription is edited, then it is fully replaced; a body id unlike the path is a 400', async () => {
    const r = await create(a, hook({ description: 'old', tags: { k: 1 }, meta: { m: 1 } }, { headers: { 'X-A': '1' } }));
    const s = r.body.subscription;
    const mismatch = await call('PUT', `/webhooks/subscriptions/${s.id}`, a, { subscription: { id: randomUUID(), data: { url: ok.url } } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ detail: 'Path subscription_id does not match body id' });
    const name = `renamed ${marker()}`;
    const edited = await call('PUT', `/webhooks/subscriptions/${s.id}`, a, { subscription: { id: s.id, name, data: { url: `${ok.url}/new`, event_types: ['traces.fetched', 'queries.revisions.committed'] } } });
    expect(edited.status).toBe(200);
    const e = edited.body.subscription;
    expect(e).toMatchObject({ id: s.id, name, secret: s.secret, secret_id: s.secret_id, flags: { is_active: true } });
    expect(e.data).toEqual({ url: `${ok.url}/new`, auth_mode: 'signature', event_types: ['traces.fetched', 'queries.revisions.committed'] });
    for (const k of ['description', 'tags', 'meta']) expect(e).not.toHaveProperty(k);
    expect(e.updated_at >= e.created_at).toBe(true);
    // A new secret replaces the stored one in the same vault secret.
    const reKeyed = await call('PUT', `/webhooks/subscriptions/${s.id}`, a, { subscription: { id: s.id, name, data: { url: ok.url }, secret: 'a-brand-new-secret' } });
    expect(reKeyed.body.subscription).toMatchObject({ secret: 'a-brand-new-secret', secret_id: s.secret_id });
    expect((await call('GET', `/webhooks/subscriptions/${s.id}`, a)).body.subscription.secret).toBe('a-brand-new-secret');
  });

  it('when a subscription is stopped and started, then only is_active changes, idempotently; a PUT without flags re-activates', async () => {
    const s = (await create(a, hook({ tags: { keep: true } }))).body.subscription;
    const stopped = await call('POST', `/webhooks/subscriptions/${s.id}/stop`, a);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toEqual({ count: 1, subscription: { ...s, flags: { is_active: false }, updated_at: expect.any(String), updated_by_id: expect.any(String) } });
    expect((await call('GET', `/webhooks/subscriptions/${s.id}`, a)).body.subscription.flags.is_active).toBe(false);
    expect((await call('POST', `/webhooks/subscriptions/${s.id}/stop`, a)).body.subscription.flags.is_active).toBe(false);
    const started = await call('POST', `/webhooks/subscriptions/${s.id}/start`, a);
    expect(started.body.subscription).toMatchObject({ flags: { is_active: true }, tags: { keep: true }, secret: s.secret, data: s.data });
    expect((await call('POST', `/webhooks/subscriptions/${s.id}/start`, a)).body.subscription.flags.is_active).toBe(true);
    await call('POST', `/webhooks/subscriptions/${s.id}/stop`, a);
    const put = await call('PUT', `/webhooks/subscriptions/${s.id}`, a, { subscription: { id: s.id, data: s.data } });
    expect(put.body.subscription.flags.is_active).toBe(true);
    const putStopped = await call('PUT', `/webhooks/subscriptions/${s.id}`, a, { subscription: { id: s.id, data: s.data, flags: { is_active: false } } });
    expect(putStopped.body.subscription.flags.is_active).toBe(false);
  });

  it('when a subscription is deleted, then it is a 404 afterwards and its vault secret is gone with its key', async () => {
    const s = (await create(a, hook())).body.subscription;
    expect((await call('GET', `/secrets/${s.secret_id}`, a)).status).toBe(200);
    expect((await call('DELETE', `/webhooks/subscriptions/${s.id}`, a)).status).toBe(204);
    expect((await call('GET', `/webhooks/subscriptions/${s.id}`, a)).status).toBe(404);
    expect((await call('DELETE', `/webhooks/subscriptions/${s.id}`, a)).status).toBe(404);
    expect((await call('GET', `/secrets/${s.secret_id}`, a)).status).toBe(404);
    expect((await db.query('SELECT 1 FROM secret_keys WHERE secret_id = $1', [s.secret_id])).rowCount).toBe(0);
  });

  it('when the signing secret is stored, then it is a write-only webhook_provider secret in the vault, never in clear outside', async () => {
    const name = `vaulted ${marker()}`;
    const s = (await create(a, hook({ name }))).body.subscription;
    const secret = await call('GET', `/secrets/${s.secret_id}`, a);
    expect(secret.body).toMatchObject({ id: s.secret_id, kind: 'webhook_provider', header: { name: `webhook-${name}` }, write_only: true, data: { provider: {} } });
    expect(secret.body.value_status).toEqual({ configured: true, preview: `${s.secret.slice(0, 3)}****${s.secret.slice(-3)}` });
    expect(JSON.stringify((await call('GET', '/secrets/', a)).body)).not.toContain(s.secret);
    const events = await db.query("SELECT payload::text AS p FROM events WHERE type LIKE 'accounts.secret.%' OR type LIKE 'accounts.webhook.%'");
    expect(events.rows.map((r) => r.p).join('\n')).not.toContain(s.secret);
    const unnamed = (await create(a, { data: { url: ok.url } })).body.subscription;
    expect((await call('GET', `/secrets/${unnamed.secret_id}`, a)).body.header.name).toBe('webhook-subscription');
  });

  it("when another project asks, then a subscription is a 404 and not listed", async () => {
    const s = (await create(a, hook({ tags: { tenancy: 'x' } }))).body.subscription;
    expect((await call('GET', `/webhooks/subscriptions/${s.id}`, b)).status).toBe(404);
    expect((await call('PUT', `/webhooks/subscriptions/${s.id}`, b, { subscription: { id: s.id, data: { url: ok.url } } })).status).toBe(404);
    expect((await call('DELETE', `/webhooks/subscriptions/${s.id}`, b)).status).toBe(404);
    expect((await call('POST', `/webhooks/subscriptions/${s.id}/stop`, b)).status).toBe(404);
    expect((await call('POST', '/webhooks/subscriptions/test', b, { subscription_id: s.id })).status).toBe(404);
    expect((await call('POST', '/webhooks/subscriptions/query', b, {})).body.subscriptions.map((x: { id: string }) => x.id)).not.toContain(s.id);
    expect((await call('GET', `/webhooks/subscriptions/${s.id}`, a)).body.subscription.flags.is_active).toBe(true);
  });

  it('when the caller is a viewer, then subscriptions can be read but not written or tested; an editor may', async () => {
    const s = (await create(a, hook())).body.subscription;
    const v = await createAccount(t.baseUrl, t.adminToken);
    const setRole = (role: string) => fetch(`${t.baseUrl}/admin/simple/accounts/organizations/memberships/`, {
      method: 'POST', headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ organization_id: a.organizationId, user: { id: v.userId }, role }),
    });
    expect((await setRole('viewer')).status).toBe(200);
    const sessions = createSessionCodec({ secrets: t.secrets.SESSION_SECRETS.split(','), secure: false });
    const cookie = { Cookie: `${sessions.cookieName}=${sessions.issue({ user_id: v.userId, email: v.email, identities: ['email:otp'] }).token}` };
    const as = async (method: string, p: string, body?: unknown) => (await fetch(`${t.baseUrl}${p}?project_id=${a.projectId}`, {
      method, headers: { ...cookie, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })).status;
    expect(await as('GET', `/webhooks/subscriptions/${s.id}`)).toBe(200);
    expect(await as('POST', '/webhooks/subscriptions/query', {})).toBe(200);
    expect(await as('POST', '/webhooks/subscriptions/', { subscription: hook() })).toBe(403);
    expect(await as('PUT', `/webhooks/subscriptions/${s.id}`, { subscription: { id: s.id, data: s.data } })).toBe(403);
    expect(await as('POST', `/webhooks/subscriptions/${s.id}/stop`)).toBe(403);
    expect(await as('POST', '/webhooks/subscriptions/test', { subscription_id: s.id })).toBe(403);
    expect(await as('DELETE', `/webhooks/subscriptions/${s.id}`)).toBe(403);
    expect((await setRole('editor')).status).toBe(200);
    expect(await as('POST', `/webhooks/subscriptions/${s.id}/stop`)).toBe(200);
    expect((await fetch(`${t.baseUrl}/webhooks/subscriptions/${s.id}`)).status).toBe(401);
  });
});

describe('a refused PUT', () => {
  /** Commands that refuse every subscription change, as if it lost to concurrent changes every time. */
  class RefusingCommands extends AccountCommands {
    override async appendAndAwait<T extends AccountsEventType>(change: AccountChange<T>): Promise<CommandOutcome> {
      if (change.type === 'accounts.webhook.updated') return { status: 'rejected', code: 'webhook_changed', message: 'The webhook subscription changed meanwhile' };
      return super.appendAndAwait(change);
    }
  }
  let producer: Producer;
  let put: (req: Request, res: Response) => Promise<void>;
  let pool: ReturnType<typeof openPostgres>;
  beforeAll(async () => {
    const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'webhooks-refused-put' });
    producer = await kafka.producer();
    pool = openPostgres(t.databaseUrl);
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const commands = new RefusingCommands(new AccountAppender(producer, topics), pool);
    const routes = webhookRoutes({ pool, commands, keyring: parseSecretsKeys(t.secrets.SECRETS_KEY), outbound: createOutboundClient(), producer, topics }, { view: [], edit: [] });
    put = (routes['webhooks.subscriptions.edit'] as unknown as Array<(req: Request, res: Response) => Promise<void>>)[0]!;
  });
  afterAll(async () => { await producer?.close(); await pool?.end(); });

  const putAs = (acc: TestAccount, id: string, subscription: Record<string, unknown>) => put({
    params: { subscription_id: id }, body: { subscription: { id, ...subscription } }, id: randomUUID(),
    scope: { projectId: acc.projectId, organizationId: acc.organizationId, userId: acc.userId, workspaceId: '', apiKeyId: '' },
  } as unknown as Request, { status() { return this; }, json() { return this; } } as unknown as Response);
  const secretRows = async (acc: TestAccount) => (await db.query("SELECT id::text AS id, name FROM secrets WHERE project_id = $1 AND kind = 'webhook_provider' ORDER BY id", [acc.projectId])).rows;

  it('when the change of a PUT bringing a new secret is refused, then the vault secret keeps its value and name', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const s = (await create(acc, hook({ name: 'kept' }))).body.subscription;
    const before = await secretRows(acc);
    await expect(putAs(acc, s.id, { name: 'renamed', data: { url: ok.url }, secret: 'refused-new-secret' })).rejects.toMatchObject({ code: 'webhook_changed' });
    const after = (await call('GET', `/webhooks/subscriptions/${s.id}`, acc)).body.subscription;
    expect(after).toEqual(s);
    expect(after.secret).not.toBe('refused-new-secret');
    expect(await secretRows(acc)).toEqual(before);
    expect(before).toEqual([{ id: s.secret_id, name: 'webhook-kept' }]);
  });

  it('when the secret was gone and the refused PUT created a new one, then that new one is deleted again', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const s = (await create(acc, hook())).body.subscription;
    expect((await call('DELETE', `/secrets/${s.secret_id}`, acc)).status).toBe(204);
    await expect(putAs(acc, s.id, { data: { url: ok.url }, secret: 'refused-new-secret' })).rejects.toMatchObject({ code: 'webhook_changed' });
    expect(await secretRows(acc)).toEqual([]);
    expect((await db.query('SELECT count(*)::int AS n FROM secret_keys sk JOIN secrets s ON s.id = sk.secret_id WHERE s.project_id = $1', [acc.projectId])).rows[0].n).toBe(0);
  });
});

describe('querying many subscriptions', () => {
  it('when more than 1,000 subscriptions match, then an answer holds 1,000, `limit` or not, and `next` brings the rest', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    await db.query(
      `INSERT INTO webhook_subscriptions (id, project_id, url, secret_id, created_at)
       SELECT gen_random_uuid(), $1::uuid, 'https://example.com/' || g, gen_random_uuid(), now() FROM generate_series(1, 1001) AS g`,
      [acc.projectId],
    );
    const all = await call('POST', '/webhooks/subscriptions/query', acc, {});
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(1_000);
    expect((await call('POST', '/webhooks/subscriptions/query', acc, { windowing: { limit: 5_000 } })).body.count).toBe(1_000);
    const rest = await call('POST', '/webhooks/subscriptions/query', acc, { windowing: { next: all.body.subscriptions[999].id } });
    expect(rest.body.count).toBe(1);
  });
});

describe('querying subscriptions', () => {
  let m: string;
  let A: any;
  let B: any;
  beforeAll(async () => {
    m = marker();
    A = (await create(a, { name: `Alpha ${m}`, description: 'First Of Two', tags: { _marker: m, kind: 'A' }, data: { url: ok.url } })).body.subscription;
    B = (await create(a, { name: `Beta ${m}`, tags: { _marker: m, kind: 'B' }, meta: { kind: 'A' }, data: { url: ok.url } })).body.subscription;
  });
  const query = (body: unknown) => call('POST', '/webhooks/subscriptions/query', a, body);
  const ids = (r: { body: { subscriptions: Array<{ id: string }> } }) => r.body.subscriptions.map((s) => s.id);

  it('when filtered by tags, name or description, then the matching ones come back, newest first, without secrets', async () => {
    const both = await query({ subscription: { tags: { _marker: m } } });
    expect(both.status).toBe(200);
    expect(both.body.count).toBe(2);
    expect(ids(both)).toEqual([B.id, A.id]);
    expect(both.body.subscriptions.every((s: object) => !('secret' in s))).toBe(true);
    expect(both.body.subscriptions[1]).toEqual((({ secret: _s, ...rest }) => rest)(A));
    expect(ids(await query({ subscription: { tags: { _marker: m }, name: 'alpha' } }))).toEqual([A.id]);
    expect(ids(await query({ subscription: { tags: { _marker: m }, name: `BETA ${m}` } }))).toEqual([B.id]);
    expect(ids(await query({ subscription: { tags: { _marker: m }, description: 'of two' } }))).toEqual([A.id]);
    expect(ids(await query({ subscription: { tags: { _marker: m, kind: 'A' } } }))).toEqual([A.id]);
    expect((await query({ subscription: { tags: { _marker: m, kind: 'Z' } } })).body).toEqual({ count: 0, subscriptions: [] });
    // flags, meta and include_archived are ignored.
    expect(ids(await query({ subscription: { tags: { _marker: m }, flags: { is_active: false }, meta: { kind: 'nope' } }, include_archived: true }))).toEqual([B.id, A.id]);
  });

  it('when paged, then ids descend and next returns the ids below it; a limit below 1 is 1', async () => {
    const tags = { _marker: m };
    const first = await query({ subscription: { tags }, windowing: { limit: 1 } });
    expect(ids(first)).toEqual([B.id]);
    const second = await query({ subscription: { tags }, windowing: { limit: 1, next: B.id } });
    expect(ids(second)).toEqual([A.id]);
    expect((await query({ subscription: { tags }, windowing: { limit: 1, next: A.id.toUpperCase() } })).body.count).toBe(0);
    expect(ids(await query({ subscription: { tags }, windowing: { limit: 0 } }))).toEqual([B.id]);
    expect(ids(await query({ subscription: { tags }, windowing: { limit: -5 } }))).toEqual([B.id]);
    expect((await query({ windowing: { next: 'not-a-uuid' } })).status).toBe(422);
  });

  it('when the body is empty, then every subscription of the project comes back', async () => {
    const all = await query({});
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(all.body.subscriptions.length);
    expect(ids(all)).toEqual(expect.arrayContaining([A.id, B.id]));
  });
});

describe('test deliveries', () => {
  const test = (body: unknown, acc = a) => call('POST', '/webhooks/subscriptions/test', acc, body);
  const forEvent = (r: Awaited<ReturnType<typeof startReceiver>>, eventId: string) => r.received.filter((x) => x.headers['x-agenta-event-id'] === eventId);
  /** The one request the receiver got for this event (a second one would be a duplicate send). */
  const only = (r: Awaited<ReturnType<typeof startReceiver>>, eventId: string): Received => {
    const got = forEvent(r, eventId);
    expect(got).toHaveLength(1);
    return got[0]!;
  };

  it('when a stored subscription is tested, then the receiver gets a request signed over its exact bytes, and the delivery is recorded', async () => {
    const s = (await create(a, hook({ tags: { t: 1 } }))).body.subscription;
    await call('POST', `/webhooks/subscriptions/${s.id}/stop`, a);
    const r = await test({ subscription_id: s.id });
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(1);
    const d = r.body.delivery;
    expect(d).toMatchObject({ subscription_id: s.id, status: { code: '200', message: 'success' }, data: { event_type: 'webhooks.subscriptions.tested', url: `${ok.url}/hook`, response: { status_code: 200, body: 'got it' } } });
    expect(d.event_id).toMatch(UUID_V7);
    expect(d.data.headers['X-Agenta-Signature']).toBe('[REDACTED]');
    const got = only(ok, d.event_id);
    expect(got.path).toBe('/hook');
    expect(got.headers['idempotency-key']).toBe(d.id);
    expect(got.headers['x-agenta-delivery-id']).toBe(d.id);
    expect(got.headers['x-agenta-event-type']).toBe('webhooks.subscriptions.tested');
    expect(verifySignature(s.secret, got.raw, got.headers['x-agenta-signature'] as string)).toBe(true);
    expect(verifySignature('another-secret', got.raw, got.headers['x-agenta-signature'] as string)).toBe(false);
    const payload = JSON.parse(got.raw.toString('utf8'));
    expect(payload).toEqual({
      event: { event_id: d.event_id, event_type: 'webhooks.subscriptions.tested', timestamp: expect.any(String), created_at: expect.any(String), attributes: { subscription_id: s.id } },
      subscription: { id: s.id, name: s.name, tags: { t: 1 }, meta: null, created_at: s.created_at, updated_at: expect.any(String) },
      scope: { project_id: a.projectId },
    });
    expect(d.data.payload).toEqual(payload);
    // Recorded (read-your-writes: the row is there when the answer is).
    const row = await db.query('SELECT id::text AS id, status, attempts, final FROM webhook_deliveries WHERE subscription_id = $1 AND event_id = $2', [s.id, d.event_id]);
    expect(row.rows).toEqual([{ id: d.id, status: expect.objectContaining({ code: '200', message: 'success' }), attempts: 1, final: true }]);
    // And the event enters the project's events log.
    const logged = await eventually(
      () => call('POST', '/events/query', a, { event: { event_id: d.event_id } }),
      (q) => q.status === 200 && q.body.count === 1, 30_000,
    );
    expect(logged.body.events[0]).toMatchObject({ event_id: d.event_id, event_type: 'webhooks.subscriptions.tested', attributes: { subscription_id: s.id, user_id: expect.any(String) } });
  });

  it('when the receiver answers 500, then the test still answers 200 with the failed delivery', async () => {
    const s = (await create(a, hook({}, { url: `${failing.url}/down` }))).body.subscription;
    const r = await test({ subscription_id: s.id });
    expect(r.status).toBe(200);
    expect(r.body.delivery).toMatchObject({ status: { code: '500', message: 'failed' }, data: { response: { status_code: 500 } } });
    expect(forEvent(failing, r.body.delivery.event_id)).toHaveLength(1);
  });

  it('when the URL is refused by the outbound guard, then the delivery fails with code 400 and nothing is sent', async () => {
    const s = (await create(a, hook({}, { url: 'http://10.0.0.1/hook' }))).body.subscription;
    const r = await test({ subscription_id: s.id });
    expect(r.status).toBe(200);
    expect(r.body.delivery).toMatchObject({ status: { code: '400', message: 'failed' }, data: { url: 'http://10.0.0.1/hook', error: expect.any(String) } });
    const draft = await test({ subscription: { data: { url: 'http://localhost:1/x' } } });
    expect(draft.body.delivery.status).toMatchObject({ code: '400', message: 'failed' });
  });

  it('when authorization mode is tested, then the raw secret is the Authorization header and the recorded one is redacted', async () => {
    const secret = `Token ${marker()}`;
    const s = (await create(a, hook({ secret }, { auth_mode: 'authorization', headers: { 'X-Custom': 'yes', authorization: 'dropped' } }))).body.subscription;
    const r = await test({ subscription_id: s.id });
    const got = only(ok, r.body.delivery.event_id);
    expect(got.headers.authorization).toBe(secret);
    expect(got.headers['x-custom']).toBe('yes');
    expect(got.headers['x-agenta-signature']).toBeUndefined();
    expect(r.body.delivery.data.headers.Authorization).toBe('[REDACTED]');
    expect(JSON.stringify(r.body)).not.toContain(secret);
  });

  it('when a draft without id is tested, then it is sent with the body secret and nothing is persisted', async () => {
    const before = await db.query('SELECT count(*)::int AS n FROM webhook_subscriptions');
    const r = await test({ subscription: { name: 'draft', data: { url: `${ok.url}/draft`, payload_fields: { who: '$.subscription.id', what: '$.event.attributes.subscription_id' } }, secret: 'draft-secret' } });
    expect(r.status).toBe(200);
    const d = r.body.delivery;
    expect(d).toMatchObject({ subscription_id: ZERO, status: { code: '200', message: 'success' } });
    const got = only(ok, d.event_id);
    expect(verifySignature('draft-secret', got.raw, got.headers['x-agenta-signature'] as string)).toBe(true);
    expect(got.raw.toString('utf8')).toBe('{"what":"draft","who":"draft"}');
    const throwaway = await test({ subscription: { data: { url: `${ok.url}/draft` } } });
    expect(throwaway.body.delivery.status.code).toBe('200');
    expect(only(ok, throwaway.body.delivery.event_id).headers['x-agenta-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect((await db.query('SELECT count(*)::int AS n FROM webhook_subscriptions')).rows[0].n).toBe(before.rows[0].n);
    expect((await db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])', [[d.event_id, throwaway.body.delivery.event_id]])).rows[0].n).toBe(0);
    expect((await test({ subscription: { data: { url: ok.url, auth_mode: 'authorization' } } })).status).toBe(400);
  });

  it('when a template would make the payload larger than 1 MiB, then nothing is sent and the delivery fails with code 400', async () => {
    const sent = ok.received.length;
    const r = await test({ subscription: { meta: { blob: 'm'.repeat(60_000) }, data: { url: `${ok.url}/huge`, payload_fields: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, '$.subscription.meta'])) } } });
    expect(r.status).toBe(200);
    expect(r.body.delivery.status).toMatchObject({ code: '400', message: 'failed' });
    expect(r.body.delivery.data.error).toMatch(/^payload too large: /);
    expect(ok.received.length).toBe(sent);
  });

  it('when a draft carries a stored id, then the stored secret signs the draft, unless the draft brings one', async () => {
    const s = (await create(a, hook())).body.subscription;
    const r = await test({ subscription: { id: s.id, data: { url: `${ok.url}/as-draft` } } });
    expect(r.body.delivery.subscription_id).toBe(s.id);
    const got = only(ok, r.body.delivery.event_id);
    expect(got.path).toBe('/as-draft');
    expect(verifySignature(s.secret, got.raw, got.headers['x-agenta-signature'] as string)).toBe(true);
    const own = await test({ subscription: { id: s.id, data: { url: ok.url }, secret: 'override' } });
    const got2 = only(ok, own.body.delivery.event_id);
    expect(verifySignature('override', got2.raw, got2.headers['x-agenta-signature'] as string)).toBe(true);
    // The stored secret is unchanged by a test.
    expect((await call('GET', `/webhooks/subscriptions/${s.id}`, a)).body.subscription.secret).toBe(s.secret);
    expect((await test({ subscription: { id: randomUUID(), data: { url: ok.url } } })).status).toBe(404);
  });

  it('when the request names no target or both, or an unknown id, then it is a 400 or a 404', async () => {
    const s = (await create(a, hook())).body.subscription;
    const neither = await test({});
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({ detail: 'Provide exactly one of subscription_id or subscription' });
    expect((await test({ subscription_id: s.id, subscription: { data: { url: ok.url } } })).status).toBe(400);
    expect((await test({ subscription_id: randomUUID() })).status).toBe(404);
    expect((await test({ subscription_id: 'nope' })).status).toBe(422);
  });
});
