// The webhook dispatcher when things go wrong, against the real stack (an all-in-one app without its
// dispatcher, plus a dispatcher built here over the same Kafka and Postgres, its producer wrapped so
// that delivery records can be refused or held up) and real receivers on loopback:
// records that cannot be appended end the delivery after a bounded number of tries and never make
// it POST forever; an unopenable signing secret ends it as failed; one subscription's unpreparable
// payload does not hold up the event's other deliveries; a subscription edited before a retry gets
// the retry rebuilt (new URL, new secret); an event published twice is delivered once; a record
// whose id a client already took for another pair keeps the outcome; the schedule's claim skips
// deliveries in flight here, renews a lease about to run out before recording, and stays cheap with
// a large due backlog.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@llm/config';
import { encodeEvent, uuidv7, type Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import { createLogger } from '@llm/logging';
import { createOutboundClient, outboundOptionsFromEnv } from '@llm/outbound';
import { migratePostgres, openPostgres, type Pool } from '@llm/postgres';
import { connectKafka } from '@llm/runtime';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { deliveryIdOf, verifySignature } from '@llm/webhooks';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { createWebhookDispatcher, DISPATCHER_MIGRATIONS, type WebhookDispatcher } from '../src/app.ts';
import { dispatcherSettingsFromEnv, webhookDispatcherConfig, type WebhookDispatcherConfig } from '../src/config.ts';
import { scheduleStore } from '../src/schedule/schedule-store.ts';
import { attemptDelivery } from '../src/sender/attempt.ts';

interface Received { at: number; path: string; headers: http.IncomingHttpHeaders; raw: Buffer }

/** /ok/* → 200; /flaky/* → 500 on a delivery's first request, 200 after. */
async function startReceivers(): Promise<{ base: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { at: Date.now(), path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) };
      received.push(r);
      const key = `${r.path}:${String(req.headers['idempotency-key'])}`;
      if (r.path.startsWith('/flaky/') && !seen.has(key)) { seen.add(key); res.writeHead(500).end('try later'); return; }
      res.writeHead(200).end('got it');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

/** What the wrapped producer does with records on the deliveries topic. */
const faults = {
  /** Refuse every record. */
  refuseAll: false,
  /** Refuse records larger than this (as a broker refuses a message over its limit). */
  maxBytes: Infinity,
  /** Hold records until this resolves. */
  hold: undefined as Promise<void> | undefined,
};

let t: TestApp;
let acc: TestAccount;
let rx: Awaited<ReturnType<typeof startReceivers>>;
let config: WebhookDispatcherConfig;
let kafka: KafkaClient;
let topics: Topics;
let rawProducer: Producer;
let producer: Producer;
let pool: Pool;
let db: pg.Pool;
let dispatcher: WebhookDispatcher | undefined;
const log = createLogger({ name: 'dispatcher-faults', level: 'silent' });

beforeAll(async () => {
  rx = await startReceivers();
  const outbound = { OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true' };
  t = await startTestApp({ WEBHOOK_DISPATCHER_ENABLED: 'false', ...outbound });
  acc = await createAccount(t.baseUrl, t.adminToken);
  const parsed = parseConfig(webhookDispatcherConfig, {
    ...t.secrets, ...outbound, KAFKA_BROKERS: t.kafkaBrokers, KAFKA_TOPIC_PREFIX: t.topicPrefix, KAFKA_SPANS_PARTITIONS: '3', KAFKA_ACCOUNTS_PARTITIONS: '1',
    DATABASE_URL: t.databaseUrl, WEBHOOK_MAX_RETRIES: '3', WEBHOOK_RETRY_BASE_MS: '4000', WEBHOOK_RETRY_MAX_MS: '8000', WEBHOOK_TIMEOUT_MS: '1000',
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  config = parsed.config;
  ({ kafka, topics } = await connectKafka(config, log));
  rawProducer = await kafka.producer();
  producer = {
    async send(topic, records) {
      if (topic === topics.deliveries) {
        if (faults.refuseAll) throw new Error('broker unavailable (test fault)');
        if (records.some((r) => (r.value?.length ?? 0) > faults.maxBytes)) throw new Error('MESSAGE_TOO_LARGE (test fault)');
        if (faults.hold) await faults.hold;
      }
      return rawProducer.send(topic, records);
    },
    close: () => rawProducer.close(),
  };
  pool = openPostgres(config.DATABASE_URL);
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
  await migratePostgres(pool, DISPATCHER_MIGRATIONS);
});
afterAll(async () => {
  await dispatcher?.stop();
  await rawProducer?.close();
  await pool?.end();
  await db?.end();
  await t?.stop();
  await rx?.close();
});

const marker = (): string => randomBytes(6).toString('hex');
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
async function subscribe(path: string, data: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await call('POST', '/webhooks/subscriptions/', { subscription: { name: `hook ${marker()}`, ...extra, data: { url: `${rx.base}${path}`, ...data } } });
  expect(r.status).toBe(200);
  return r.body.subscription;
}
/** A platform event of the project onto platform.events.v1 (the same id again when `eventId` is given). */
async function emit(eventType: string, attributes: Record<string, unknown> = {}, eventId = uuidv7()): Promise<string> {
  const value = encodeEvent('platform.event.recorded', {
    event_type: eventType, request_type: 'unknown', status_code: '', status_message: '', attributes_json: JSON.stringify({ user_id: acc.userId, ...attributes }), user_id: acc.userId,
  }, { eventId, projectId: acc.projectId, organizationId: acc.organizationId, requestId: randomUUID() });
  await rawProducer.send(topics.platform, [{ key: acc.projectId, value }]);
  return eventId;
}
const at = (path: string): Received[] => rx.received.filter((r) => r.path === path);
const delivery = (id: string) => call('GET', `/webhooks/deliveries/${id}`);
const finalDelivery = (id: string, timeoutMs = 20_000) =>
  eventually(() => delivery(id), (r) => r.status === 200 && r.body.delivery.status.message !== 'retrying', timeoutMs).then((r) => r.body.delivery);
const taskOf = async (id: string) => (await db.query('SELECT stalls, last_error, attempts FROM webhook_dispatch_tasks WHERE delivery_id = $1', [id])).rows[0];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the schedule alone (no dispatcher running yet) ----

describe('schedule', () => {
  const store = () => scheduleStore(pool);
  async function insertTask(subscriptionId: string, dueOffsetMs = -1000): Promise<string> {
    const id = randomUUID();
    await db.query(
      `INSERT INTO webhook_dispatch_tasks (delivery_id, project_id, subscription_id, event_id, event_type, request, due_at)
       VALUES ($1, $2, $3, $4, 'traces.queried', '{}'::jsonb, now() + $5 * interval '1 millisecond')`,
      [id, acc.projectId, subscriptionId, randomUUID(), dueOffsetMs],
    );
    return id;
  }

  it('when a claimed delivery is still in flight here and its lease ran out, then this process does not claim it again', async () => {
    const sub = randomUUID();
    const id = await insertTask(sub);
    const first = await store().claim({ limit: 5, perSubscription: 5, inFlight: new Map(), exclude: [], leaseMs: 1, owner: 'a' });
    expect(first.map((x) => x.deliveryId)).toEqual([id]);
    await pause(20);
    const again = await store().claim({ limit: 5, perSubscription: 5, inFlight: new Map(), exclude: [id], leaseMs: 60_000, owner: 'a' });
    expect(again).toEqual([]);
    // Another process (nothing in flight there) does take it over.
    const other = await store().claim({ limit: 5, perSubscription: 5, inFlight: new Map(), exclude: [], leaseMs: 60_000, owner: 'b' });
    expect(other.map((x) => x.deliveryId)).toEqual([id]);
    await db.query('DELETE FROM webhook_dispatch_tasks WHERE subscription_id = $1', [sub]);
  });

  it('when the due backlog is large and one subscription is at its limit, then a claim stays fast and serves the others', async () => {
    const [big, other] = [randomUUID(), randomUUID()];
    await db.query(
      `INSERT INTO webhook_dispatch_tasks (delivery_id, project_id, subscription_id, event_id, event_type, request, due_at)
       SELECT gen_random_uuid(), $1, $2, gen_random_uuid(), 'traces.queried', '{}'::jsonb, now() - interval '1 hour' + g * interval '1 millisecond'
         FROM generate_series(1, 200000) g`,
      [acc.projectId, big],
    );
    await db.query('ANALYZE webhook_dispatch_tasks');
    try {
      const mine = await insertTask(other, -10);
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const got = await store().claim({ limit: 16, perSubscription: 2, inFlight: new Map([[big, 2]]), exclude: [], leaseMs: 1, owner: 'c' });
        times.push(performance.now() - started);
        expect(got.map((x) => x.deliveryId)).toEqual([mine]);
        await pause(5);
      }
      const started = performance.now();
      const open = await store().claim({ limit: 16, perSubscription: 2, inFlight: new Map(), exclude: [mine], leaseMs: 1, owner: 'c' });
      times.push(performance.now() - started);
      expect(open.map((x) => x.subscriptionId)).toEqual([big, big]);
      const startedNext = performance.now();
      await store().nextDueInMs(new Map([[big, 2]]), 2);
      const nextMs = performance.now() - startedNext;
      times.sort((x, y) => x - y);
      console.log(`[timing] claim with 200000 due rows: median ${times[3]!.toFixed(1)} ms, max ${times[5]!.toFixed(1)} ms; nextDueInMs ${nextMs.toFixed(1)} ms`);
      expect(times[3]!).toBeLessThan(50);
      expect(nextMs).toBeLessThan(50);
    } finally {
      await db.query('DELETE FROM webhook_dispatch_tasks WHERE subscription_id = ANY($1::uuid[])', [[big, other]]);
    }
  });

  it('when recording an outcome runs close to the end of the lease, then the lease is renewed first and no other process claims the delivery meanwhile', async () => {
    const path = `/ok/${marker()}`;
    const s = await subscribe(path, { event_types: [] });
    const deliveryId = randomUUID();
    await db.query(
      `INSERT INTO webhook_dispatch_tasks (delivery_id, project_id, subscription_id, event_id, event_type, request, subscription_version)
       VALUES ($1, $2, $3, $4, 'traces.queried', $5::jsonb, (SELECT version FROM webhook_subscriptions WHERE id = $3))`,
      [deliveryId, acc.projectId, s.id, randomUUID(), JSON.stringify({
        deliveryId, eventId: randomUUID(), eventType: 'traces.queried', url: `${rx.base}${path}`, body: '{"x":1}', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': deliveryId },
      })],
    );
    const st = store();
    // Claimed for 1.5 s, while the sender's lease is 10 s: less than half of it is left when recording.
    const leaseMs = 1500;
    const [task] = await st.claim({ limit: 1, perSubscription: 1, inFlight: new Map(), exclude: [], leaseMs, owner: 'renewer' });
    expect(task?.deliveryId).toBe(deliveryId);
    let release!: () => void;
    faults.hold = new Promise<void>((resolve) => { release = resolve; });
    const settings = dispatcherSettingsFromEnv(config);
    const attempt = attemptDelivery({
      pool, producer, topics, log, keyring: config.SECRETS_KEY, client: createOutboundClient(outboundOptionsFromEnv(config)),
      policy: settings.policy, timeoutMs: 1000, owner: 'renewer', store: st, leaseMs: 10_000,
    }, task!);
    try {
      await eventually(async () => at(path), (x) => x.length === 1);
      // The record is held past the claim's original lease: nobody else may take the delivery.
      await pause(leaseMs + 300);
      expect(await st.claim({ limit: 5, perSubscription: 5, inFlight: new Map(), exclude: [], leaseMs: 60_000, owner: 'thief' })).toEqual([]);
    } finally {
      release();
      faults.hold = undefined;
    }
    await attempt;
    expect(await taskOf(deliveryId)).toBeUndefined();
    expect(at(path)).toHaveLength(1);
  });
});

// ---- the whole dispatcher ----

describe('dispatcher', () => {
  beforeAll(async () => {
    dispatcher = createWebhookDispatcher({
      kafka, producer, pool, topics, log, keyring: config.SECRETS_KEY, outbound: outboundOptionsFromEnv(config),
      settings: { ...dispatcherSettingsFromEnv(config), stallDelayMs: 100, pollMs: 100 },
    });
    await dispatcher.start();
  });

  it('when the outcome of every attempt is refused as too large, then the receiver gets at most 5 requests and the delivery ends failed with a small record', async () => {
    const path = `/ok/${marker()}`;
    const s = await subscribe(path, { event_types: ['traces.queried'] });
    faults.maxBytes = 4000;
    try {
      const eventId = await emit('traces.queried', { blob: 'x'.repeat(5000) });
      const id = deliveryIdOf(eventId, s.id);
      const d = await finalDelivery(id, 30_000);
      expect(d.status).toMatchObject({ code: '0', message: 'failed' });
      expect(d.data.error).toMatch(/could not be completed or recorded.*MESSAGE_TOO_LARGE/);
      expect(d.data).not.toHaveProperty('payload');
      expect(at(path)).toHaveLength(5);
      await pause(1500);
      expect(at(path)).toHaveLength(5);
      expect(await taskOf(id)).toBeUndefined();
    } finally {
      faults.maxBytes = Infinity;
    }
  });

  it('when nothing can be recorded for a while, then after 5 tries only the record is retried (never the send), and it lands once recording works again', async () => {
    const path = `/ok/${marker()}`;
    const s = await subscribe(path, { event_types: ['traces.queried'] });
    faults.refuseAll = true;
    let id: string;
    try {
      const eventId = await emit('traces.queried');
      id = deliveryIdOf(eventId, s.id);
      await eventually(async () => at(path), (x) => x.length === 5, 20_000);
      await eventually(() => taskOf(id), (row) => row?.stalls >= 6, 20_000);
      await pause(1000);
      expect(at(path)).toHaveLength(5);
    } finally {
      faults.refuseAll = false;
    }
    const d = await finalDelivery(id, 30_000);
    expect(d.status).toMatchObject({ code: '0', message: 'failed' });
    expect(d.data.error).toMatch(/broker unavailable/);
    expect(at(path)).toHaveLength(5);
  });

  it("when the subscription's signing secret cannot be opened, then nothing is sent and the delivery ends failed: code \"0\", \"signing secret unavailable\"", async () => {
    const path = `/ok/${marker()}`;
    const s = await subscribe(path, { event_types: ['traces.queried'] });
    await db.query(`UPDATE secrets SET sealed_data = $2 WHERE id = $1`, [s.secret_id, randomBytes(64).toString('base64')]);
    const eventId = await emit('traces.queried');
    const d = await finalDelivery(deliveryIdOf(eventId, s.id));
    expect(d.status).toMatchObject({ code: '0', message: 'failed' });
    expect(d.data.error).toBe('signing secret unavailable');
    expect(at(path)).toHaveLength(0);
  });

  it("when one subscription's payload is too large, then its delivery fails (400, not sent) and the event's other subscription still gets it", async () => {
    const [big, fine] = [`/ok/${marker()}`, `/ok/${marker()}`];
    const sBig = await subscribe(big, { event_types: ['testcases.queried'], payload_fields: { a: '$.event.attributes', b: '$.event.attributes' } });
    const sFine = await subscribe(fine, { event_types: ['testcases.queried'], payload_fields: { n: '$.event.attributes.n' } });
    const eventId = await emit('testcases.queried', { n: 7, blob: 'y'.repeat(600_000) });
    const ok = await finalDelivery(deliveryIdOf(eventId, sFine.id));
    expect(ok.status).toMatchObject({ code: '200', message: 'success' });
    expect(JSON.parse(at(fine)[0]!.raw.toString())).toEqual({ n: 7 });
    const failed = await finalDelivery(deliveryIdOf(eventId, sBig.id));
    expect(failed.status).toMatchObject({ code: '400', message: 'failed' });
    expect(failed.data.error).toMatch(/^payload too large/);
    expect(failed.data).not.toHaveProperty('payload');
    expect(at(big)).toHaveLength(0);
  });

  it('when a subscription is edited (new URL, new secret) while its delivery waits for a retry, then the retry is rebuilt for the new URL and never sent to the old one', async () => {
    const [before, after] = [`/flaky/${marker()}`, `/ok/${marker()}`];
    const s = await subscribe(before, { event_types: ['traces.queried'], headers: { 'X-Version': 'one' } });
    const eventId = await emit('traces.queried');
    const id = deliveryIdOf(eventId, s.id);
    await eventually(() => delivery(id), (r) => r.body?.delivery?.status.message === 'retrying');
    const secret = `new-secret-${marker()}`;
    const edited = await call('PUT', `/webhooks/subscriptions/${s.id}`, { subscription: { id: s.id, data: { url: `${rx.base}${after}`, event_types: ['traces.queried'], headers: { 'X-Version': 'two' } }, secret } });
    expect(edited.status).toBe(200);
    const d = await finalDelivery(id);
    expect(d.status).toMatchObject({ code: '200', message: 'success' });
    expect(d.data).toMatchObject({ url: `${rx.base}${after}`, attempts: 2 });
    expect(at(before)).toHaveLength(1);
    const [r] = at(after);
    expect(r!.headers).toMatchObject({ 'x-version': 'two', 'idempotency-key': id });
    expect(verifySignature(secret, r!.raw, r!.headers['x-agenta-signature'] as string)).toBe(true);
  });

  it('when an event is published again after its deliveries ended, then it is not delivered again', async () => {
    const path = `/ok/${marker()}`;
    const s = await subscribe(path, { event_types: ['traces.fetched'] });
    const eventId = await emit('traces.fetched');
    await finalDelivery(deliveryIdOf(eventId, s.id));
    await emit('traces.fetched', {}, eventId);
    const later = await emit('traces.fetched');
    await finalDelivery(deliveryIdOf(later, s.id));
    expect(at(path).map((r) => JSON.parse(r.raw.toString()).event.event_id)).toEqual([eventId, later]);
  });

  it('when a client recorded a delivery under the id the dispatcher derives for another pair, then the dispatcher outcome is kept under a fresh id', async () => {
    const path = `/ok/${marker()}`;
    const s = await subscribe(path, { event_types: ['traces.queried'] });
    const manual = await subscribe(`/ok/${marker()}`, { event_types: [] });
    const eventId = uuidv7();
    const derived = deliveryIdOf(eventId, s.id);
    const taken = await call('POST', '/webhooks/deliveries', { delivery: { id: derived, subscription_id: manual.id, event_id: randomUUID(), status: { code: '200' } } });
    expect(taken.body.delivery.id).toBe(derived);
    await emit('traces.queried', {}, eventId);
    await eventually(async () => at(path), (x) => x.length === 1);
    const listed = await eventually(
      () => call('POST', '/webhooks/deliveries/query', { delivery: { subscription_id: s.id, event_id: eventId } }),
      (r) => r.body?.count === 1 && r.body.deliveries[0].status.message === 'success',
    );
    expect(listed.body.deliveries[0].id).not.toBe(derived);
    expect((await delivery(derived)).body.delivery.subscription_id).toBe(manual.id);
  });
});
