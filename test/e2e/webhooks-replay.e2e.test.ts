// The webhook dispatcher's tables are projections of its topics: rebuilt from offset 0 into an empty
// database, they hold exactly what the live dispatcher wrote — even when the dispatcher reads the
// deliveries topic before projector-accounts has projected a single subscription (the worst order of
// a rebuild), and without sending anything again. Live first: deliveries fanned out to loopback
// receivers (success, a retry, a refusal), one recorded by a client, a stored subscription's test
// delivery and a draft's (never kept), a subscription deleted with its deliveries and a late record
// of it; then a second dispatcher under other consumer names rebuilds into a fresh database, alone
// first, with the accounts projector afterwards, and every table is compared row by row.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEvent, topicsFor, uuidv7 } from '@llm/events';
import { createKafkaClient, type KafkaClient, type Producer } from '@llm/kafka';
import { createLogger } from '@llm/logging';
import { secretsKeyEnv } from '@llm/oidc';
import { outboundEnv, outboundOptionsFromEnv } from '@llm/outbound';
import { migratePostgres, openPostgres, type Pool } from '@llm/postgres';
import { ACCOUNTS_MIGRATIONS, createAccountsProjector } from '@llm/service-projector-accounts';
import { createWebhookDispatcher, dispatcherEnv, dispatcherSettingsFromEnv, type WebhookDispatcher } from '@llm/service-webhook-dispatcher';
import { appendDeliveryRecord, deliveryIdOf } from '@llm/webhooks';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** /ok/* → 200; /flaky/* → 500 on a delivery's first request, 200 after; /reject/* → 400. */
async function startReceivers(): Promise<{ base: string; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      const key = String(req.headers['idempotency-key']);
      received.push(`${path} ${key}`);
      if (path.startsWith('/reject/')) { res.writeHead(400).end('no'); return; }
      if (path.startsWith('/flaky/') && !seen.has(key)) { seen.add(key); res.writeHead(500).end('later'); return; }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

const RETRY = { WEBHOOK_MAX_RETRIES: '3', WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_RETRY_MAX_MS: '1000', WEBHOOK_TIMEOUT_MS: '2000' };
const marker = (): string => randomBytes(6).toString('hex');

let t: TestApp;
let a: TestAccount;
let rx: Awaited<ReturnType<typeof startReceivers>>;
let kafka: KafkaClient;
let producer: Producer;
let live: Pool;
let rebuilt: Pool | undefined;
let dispatcher: WebhookDispatcher | undefined;
let accounts: { stop(): Promise<void> } | undefined;

beforeAll(async () => {
  rx = await startReceivers();
  t = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true', ...RETRY });
  a = await createAccount(t.baseUrl, t.adminToken);
  kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'webhooks-replay-test' });
  producer = await kafka.producer();
  live = openPostgres(t.databaseUrl);
});
afterAll(async () => {
  await dispatcher?.stop();
  await accounts?.stop();
  await producer?.close();
  await rebuilt?.end();
  await live?.end();
  await t?.stop();
  await rx?.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...a.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

async function subscribe(path: string): Promise<{ id: string }> {
  const r = await call('POST', '/webhooks/subscriptions/', { subscription: { name: `hook ${marker()}`, data: { url: `${rx.base}${path}`, event_types: ['testsets.revisions.committed'] } } });
  expect(r.status).toBe(200);
  return r.body.subscription;
}

async function emit(): Promise<string> {
  const eventId = uuidv7();
  const value = encodeEvent('platform.event.recorded', {
    event_type: 'testsets.revisions.committed', request_type: 'unknown', status_code: '', status_message: '', attributes_json: JSON.stringify({ user_id: a.userId }), user_id: a.userId,
  }, { eventId, projectId: a.projectId, organizationId: a.organizationId, requestId: randomUUID() });
  await producer.send(`${t.topicPrefix}platform.events.v1`, [{ key: a.projectId, value }]);
  return eventId;
}

/** Every table of the dispatcher, in a stable order (applied_at is the moment of projection, not of the record). */
const DISPATCHER_TABLES: Array<[string, string]> = [
  ['webhook_deliveries', 'SELECT * FROM webhook_deliveries ORDER BY id'],
  ['webhook_delivery_records', 'SELECT record_id, delivery_id FROM webhook_delivery_records ORDER BY record_id'],
  ['webhook_deleted_subscriptions', 'SELECT * FROM webhook_deleted_subscriptions ORDER BY subscription_id, project_id'],
  ['webhook_dispatch_tasks', 'SELECT * FROM webhook_dispatch_tasks ORDER BY delivery_id'],
];
const dump = async (pool: Pool, sql: string): Promise<unknown[]> => (await pool.query(sql)).rows;
const count = async (pool: Pool, table: string): Promise<number> => (await pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;

describe('webhook deliveries replay', () => {
  let liveTables: Record<string, unknown[]>;
  let sentBefore: number;

  it('when the dispatcher rebuilds into an empty database before any subscription is projected, then every delivery is rebuilt as it was and nothing is sent again', async () => {
    const [ok, flaky, reject, gone] = await Promise.all([subscribe(`/ok/${marker()}`), subscribe(`/flaky/${marker()}`), subscribe(`/reject/${marker()}`), subscribe(`/ok/${marker()}`)]);
    const events = [await emit(), await emit()];
    const pairs = events.flatMap((e) => [ok, flaky, reject, gone].map((s) => deliveryIdOf(e, s.id)));
    await eventually(async () => (await live.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1::uuid[]) AND final', [pairs])).rows[0].n,
      (n) => n === pairs.length, 30_000);
    // A client's record, a stored subscription's test delivery (kept) and a draft's (answered, never kept).
    expect((await call('POST', '/webhooks/deliveries', { delivery: { subscription_id: ok.id, event_id: randomUUID(), status: { code: '500', message: 'failed' }, data: { url: 'https://example.com/x' } } })).status).toBe(200);
    expect((await call('POST', '/webhooks/subscriptions/test', { subscription_id: ok.id })).status).toBe(200);
    expect((await call('POST', '/webhooks/subscriptions/test', { subscription: { data: { url: `${rx.base}/ok/draft` } } })).status).toBe(200);
    // The deleted subscription's deliveries leave with it; a late record of it (a lease that ran out) brings none back.
    expect((await call('DELETE', `/webhooks/subscriptions/${gone.id}`)).status).toBe(204);
    await eventually(() => live.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = $1', [gone.id]), (r) => r.rows[0].n === 0, 30_000);
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const late = await appendDeliveryRecord(producer, topics, {
      deliveryId: deliveryIdOf(events[0]!, gone.id), projectId: a.projectId, subscriptionId: gone.id, eventId: events[0]!,
      status: { code: '200', message: 'success', timestamp: new Date().toISOString() }, attempts: 2, final: true,
    });
    await eventually(() => live.query('SELECT count(*)::int AS n FROM webhook_delivery_records WHERE record_id = $1', [late]), (r) => r.rows[0].n === 1, 30_000);
    await eventually(() => count(live, 'webhook_dispatch_tasks'), (n) => n === 0, 30_000);

    liveTables = {};
    for (const [table, sql] of DISPATCHER_TABLES) liveTables[table] = await dump(live, sql);
    // What the rebuild must reproduce: the deliveries of three subscriptions for both events, the
    // client's and the test's; the deleted one in the tombstones only.
    expect(liveTables.webhook_deliveries).toHaveLength(3 * events.length + 2);
    expect((liveTables.webhook_deliveries as Array<{ subscription_id: string }>).some((d) => d.subscription_id === gone.id)).toBe(false);
    expect(liveTables.webhook_deleted_subscriptions).toEqual([expect.objectContaining({ subscription_id: gone.id, project_id: a.projectId })]);
    sentBefore = rx.received.length;

    // The rebuild: the accounts schema exists, but projector-accounts has not projected anything yet.
    const id = marker();
    const server = new pg.Client({ connectionString: t.databaseUrl });
    await server.connect();
    await server.query(`CREATE DATABASE wr_${id}`);
    await server.end();
    rebuilt = openPostgres(t.databaseUrl.replace(/\/[^/]*$/, `/wr_${id}`));
    await migratePostgres(rebuilt, ACCOUNTS_MIGRATIONS);
    dispatcher = createWebhookDispatcher({
      kafka, producer, pool: rebuilt, topics, log: createLogger({ name: 'webhooks-replay', level: 'silent' }),
      keyring: secretsKeyEnv.parse(t.secrets).SECRETS_KEY,
      outbound: outboundOptionsFromEnv(outboundEnv.parse({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true' })),
      settings: dispatcherSettingsFromEnv(dispatcherEnv.parse(RETRY)), consumerPrefix: `replay-${id}`,
    });
    await dispatcher.start();
    // Every record of the deliveries topic applied (the draft's and the late one included).
    const records = liveTables.webhook_delivery_records!.length;
    await eventually(() => count(rebuilt!, 'webhook_delivery_records'), (n) => n === records, 30_000);
    await eventually(() => count(rebuilt!, 'webhook_deleted_subscriptions'), (n) => n === 1, 30_000);
    expect(await count(rebuilt, 'webhook_subscriptions')).toBe(0);

    for (const [table, sql] of DISPATCHER_TABLES) expect({ table, rows: await dump(rebuilt, sql) }).toEqual({ table, rows: liveTables[table] });
    expect(rx.received.length).toBe(sentBefore);
  });

  it('when projector-accounts then catches up in the rebuilt database, then every table of the dispatcher still equals the live one and nothing was sent again', async () => {
    expect(rebuilt).toBeDefined();
    const pool = rebuilt!;
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const projector = createAccountsProjector({ kafka, producer, pool, topics, log: createLogger({ name: 'webhooks-replay', level: 'silent' }), consumerName: `replay-accounts-${marker()}` });
    accounts = projector;
    await projector.start();
    const events = await count(live, 'events');
    await eventually(() => count(pool, 'events'), (n) => n === events, 30_000);
    expect(await dump(pool, 'SELECT id FROM webhook_subscriptions ORDER BY id')).toEqual(await dump(live, 'SELECT id FROM webhook_subscriptions ORDER BY id'));
    for (const [table, sql] of DISPATCHER_TABLES) expect({ table, rows: await dump(pool, sql) }).toEqual({ table, rows: liveTables[table] });
    expect(rx.received.length).toBe(sentBefore);
  });
});
