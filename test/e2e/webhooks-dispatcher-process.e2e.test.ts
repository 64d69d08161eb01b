// The webhook dispatcher as its own process (services/webhook-dispatcher/src/main.ts) beside an
// all-in-one app started without it: killed with SIGKILL while a delivery waits for its retry and
// started again, the delivery still completes (at-least-once), and every request of it carries the
// same Idempotency-Key.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEvent, uuidv7 } from '@llm/events';
import { createKafkaClient, type Producer } from '@llm/kafka';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
// The local stack's helper: the operating system picks a port nothing listens on.
// @ts-expect-error plain .mjs without types
const { freePort } = (await import('../../deploy/local/ports.mjs')) as { freePort(): Promise<number> };
import { deliveryIdOf, verifySignature } from '@llm/webhooks';
import { startTestApp, type TestApp } from '../support/test-app.ts';

interface Received { at: number; headers: http.IncomingHttpHeaders; raw: Buffer }

let t: TestApp;
let acc: TestAccount;
let producer: Producer;
let db: pg.Pool;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
let dispatcher: ChildProcess | undefined;
let port = 0;
const RETRY_BASE_MS = 6000;

/** Answers 500 to a delivery's first two requests, 200 after. */
function startReceiver(): Promise<void> {
  const seen = new Map<string, number>();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ at: Date.now(), headers: req.headers, raw: Buffer.concat(chunks) });
      const key = String(req.headers['idempotency-key']);
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      res.writeHead(n <= 2 ? 500 : 200).end(n <= 2 ? 'not yet' : 'ok');
    });
  });
  return new Promise((resolve) => receiver.listen(0, '127.0.0.1', () => {
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    resolve();
  }));
}

async function startDispatcher(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../services/webhook-dispatcher/src/main.ts')], {
    env: {
      ...process.env, MANAGEMENT_PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', KAFKA_BROKERS: t.kafkaBrokers, KAFKA_TOPIC_PREFIX: t.topicPrefix,
      KAFKA_SPANS_PARTITIONS: '3', KAFKA_ACCOUNTS_PARTITIONS: '1', DATABASE_URL: t.databaseUrl, ...t.secrets,
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true',
      WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS), WEBHOOK_RETRY_MAX_MS: '8000', WEBHOOK_MAX_RETRIES: '5', WEBHOOK_TIMEOUT_MS: '2000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await eventually(() => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0), (s) => s === 200, 90_000);
  return child;
}

beforeAll(async () => {
  await startReceiver();
  t = await startTestApp({ WEBHOOK_DISPATCHER_ENABLED: 'false', OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true' });
  acc = await createAccount(t.baseUrl, t.adminToken);
  const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'webhooks-process-test' });
  producer = await kafka.producer();
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
  port = await freePort();
  dispatcher = await startDispatcher();
});
afterAll(async () => {
  dispatcher?.kill('SIGTERM');
  await producer?.close();
  await db?.end();
  await t?.stop();
  receiver?.closeAllConnections();
  receiver?.close();
});

async function call(method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${p}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

describe('webhook dispatcher process', () => {
  it('when the dispatcher is killed while a delivery waits for its retry and restarted, then the delivery completes with the same Idempotency-Key', async () => {
    const created = await call('POST', '/webhooks/subscriptions/', { subscription: { name: `hook ${randomBytes(4).toString('hex')}`, data: { url: `${receiverUrl}/hook`, event_types: ['traces.queried'] } } });
    expect(created.status).toBe(200);
    const sub = created.body.subscription;
    const eventId = uuidv7();
    await producer.send(`${t.topicPrefix}platform.events.v1`, [{
      key: acc.projectId,
      value: encodeEvent('platform.event.recorded', {
        event_type: 'traces.queried', request_type: 'unknown', status_code: '', status_message: '', attributes_json: JSON.stringify({ user_id: acc.userId, count: 1 }), user_id: acc.userId,
      }, { eventId, projectId: acc.projectId, organizationId: acc.organizationId, requestId: randomUUID() }),
    }]);
    const id = deliveryIdOf(eventId, sub.id);

    // The first attempt failed (500) and was recorded as retrying; the retry is scheduled seconds away.
    const retrying = await eventually(() => call('GET', `/webhooks/deliveries/${id}`), (r) => r.status === 200 && r.body.delivery.status.message === 'retrying', 30_000);
    expect(retrying.body.delivery).toMatchObject({ status: { code: '500' }, data: { attempts: 1 } });
    expect(received).toHaveLength(1);
    dispatcher!.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((resolve) => dispatcher!.once('exit', resolve));
    const row = await db.query<{ attempts: number }>('SELECT attempts FROM webhook_dispatch_tasks WHERE delivery_id = $1', [id]);
    expect(row.rows).toEqual([{ attempts: 1 }]);

    dispatcher = await startDispatcher();
    const restartedAt = Date.now();
    const done = await eventually(() => call('GET', `/webhooks/deliveries/${id}`), (r) => r.body?.delivery?.status?.message === 'success', 60_000);
    expect(done.body.delivery).toMatchObject({ id, status: { code: '200', message: 'success' }, data: { attempts: 3 } });
    expect(received).toHaveLength(3);
    expect(received.map((r) => r.headers['idempotency-key'])).toEqual([id, id, id]);
    for (const r of received) expect(verifySignature(sub.secret, r.raw, r.headers['x-agenta-signature'] as string)).toBe(true);
    expect((await db.query('SELECT 1 FROM webhook_dispatch_tasks WHERE delivery_id = $1', [id])).rowCount).toBe(0);
    const gaps = received.map((r) => r.at - received[0]!.at);
    console.log(`[timing] killed ${killedAt - received[0]!.at} ms after attempt 1; restarted (ready) ${restartedAt - received[0]!.at} ms after; attempts at ${gaps.join(', ')} ms (WEBHOOK_RETRY_BASE_MS=${RETRY_BASE_MS}: retry 1 waits ${RETRY_BASE_MS / 2}..${RETRY_BASE_MS} ms, retry 2 4000..8000 ms after attempt 2)`);
  });
});
