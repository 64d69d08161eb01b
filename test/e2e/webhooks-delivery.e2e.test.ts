// Webhook deliveries end to end (reference accounts §9.4, §9.6, §9.7): platform events produced onto
// platform.events.v1 are fanned out by the dispatcher of the all-in-one app to real receivers on
// loopback — one verifying the signature over the raw bytes it received, one answering 500 then 200,
// one that never answers, one answering 400 — and recorded in webhook_deliveries; plus the
// deliveries API (create upsert, get, query filters and paging, 404s, tenancy, the size of one
// answer: QUERY_MAX_RESULT_BYTES and 10,000 deliveries).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEvent, uuidv7 } from '@llm/events';
import { createKafkaClient, type KafkaClient, type Producer } from '@llm/kafka';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { canonicalJson, deliveryIdOf, verifySignature } from '@llm/webhooks';
import { startTestApp, type TestApp } from '../support/test-app.ts';

interface Received { at: number; path: string; headers: http.IncomingHttpHeaders; raw: Buffer }

/**
 * One loopback server, behaviours by path: /ok/* → 200; /flaky/* → 500 on a delivery's first
 * request, 200 after; /dead/* → never answers; /reject/* → 400.
 */
async function startReceivers(): Promise<{ base: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { at: Date.now(), path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) };
      received.push(r);
      const key = String(req.headers['idempotency-key']);
      if (r.path.startsWith('/dead/')) return;
      if (r.path.startsWith('/reject/')) { res.writeHead(400).end('no thanks'); return; }
      if (r.path.startsWith('/flaky/') && !seen.has(key)) { seen.add(key); res.writeHead(500).end('try later'); return; }
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('got it');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

/** One answer's byte budget here: 14 deliveries of 200 KB, or 10,000 small ones (~255 bytes each). */
const MAX_RESULT_BYTES = 3_000_000;
const RETRY = { WEBHOOK_MAX_RETRIES: '3', WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_RETRY_MAX_MS: '2000', WEBHOOK_TIMEOUT_MS: '800' };

let t: TestApp;
let a: TestAccount;
let b: TestAccount;
let rx: Awaited<ReturnType<typeof startReceivers>>;
let kafka: KafkaClient;
let producer: Producer;
beforeAll(async () => {
  rx = await startReceivers();
  t = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true', QUERY_MAX_RESULT_BYTES: String(MAX_RESULT_BYTES), ...RETRY });
  [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
  kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'webhooks-delivery-test' });
  producer = await kafka.producer();
});
afterAll(async () => { await producer?.close(); await t?.stop(); await rx?.close(); });

async function call(method: string, path: string, acc: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const marker = (): string => randomBytes(6).toString('hex');

/** A subscription through the API; answers the subscription (with its secret). */
async function subscribe(acc: TestAccount, path: string, data: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await call('POST', '/webhooks/subscriptions/', acc, { subscription: { name: `hook ${marker()}`, ...extra, data: { url: `${rx.base}${path}`, ...data } } });
  expect(r.status).toBe(200);
  return r.body.subscription;
}

/** A platform event of the project onto platform.events.v1, as the recorder would write it. */
async function emit(acc: TestAccount, eventType: string, attributes: Record<string, unknown> = {}): Promise<string> {
  const eventId = uuidv7();
  const value = encodeEvent('platform.event.recorded', {
    event_type: eventType, request_type: 'unknown', status_code: '', status_message: '', attributes_json: JSON.stringify({ user_id: acc.userId, ...attributes }), user_id: acc.userId,
  }, { eventId, projectId: acc.projectId, organizationId: acc.organizationId, requestId: randomUUID() });
  await producer.send(`${t.topicPrefix}platform.events.v1`, [{ key: acc.projectId, value }]);
  return eventId;
}

const at = (path: string): Received[] => rx.received.filter((r) => r.path === path);
const delivery = (acc: TestAccount, id: string) => call('GET', `/webhooks/deliveries/${id}`, acc);
const finalDelivery = (acc: TestAccount, id: string, timeoutMs = 20_000) =>
  eventually(() => delivery(acc, id), (r) => r.status === 200 && r.body.delivery.status.message !== 'retrying', timeoutMs).then((r) => r.body.delivery);

describe('webhook delivery', () => {
  it('when an event matches a subscription, then the receiver gets one request whose signature verifies over the raw bytes, with the documented headers', async () => {
    const path = `/ok/${marker()}`;
    const s = await subscribe(a, path, {
      event_types: ['traces.queried'],
      headers: { 'X-Team': 'ml', Authorization: 'Bearer stolen', 'X-Agenta-Signature': 'forged', 'content-type': 'text/plain', 'Idempotency-Key': 'mine', Host: 'evil.example' },
    }, { tags: { team: 'ml' } });
    const eventId = await emit(a, 'traces.queried', { count: 2, trace_ids: ['a', 'b'], note: 'héllo ✓' });
    const [r] = await eventually(async () => at(path), (x) => x.length === 1);
    const id = deliveryIdOf(eventId, s.id);
    // Signature: over the bytes as received, with the subscription's secret.
    expect(verifySignature(s.secret, r!.raw, r!.headers['x-agenta-signature'] as string)).toBe(true);
    expect(verifySignature('another-secret', r!.raw, r!.headers['x-agenta-signature'] as string)).toBe(false);
    expect(r!.headers['x-agenta-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    // Body: sorted-key compact JSON, non-ASCII escaped.
    const raw = r!.raw.toString('utf8');
    expect(raw).toBe(canonicalJson(JSON.parse(raw)));
    expect(raw).toContain('h\\u00e9llo \\u2713');
    const body = JSON.parse(raw);
    expect(Object.keys(body)).toEqual(['event', 'scope', 'subscription']);
    expect(body.event).toEqual({ event_id: eventId, event_type: 'traces.queried', timestamp: expect.any(String), created_at: expect.any(String), attributes: { user_id: a.userId, count: 2, trace_ids: ['a', 'b'], note: 'héllo ✓' } });
    expect(Object.keys(body.subscription)).toEqual(['created_at', 'id', 'meta', 'name', 'tags', 'updated_at']);
    expect(body.subscription).toMatchObject({ id: s.id, name: s.name, tags: { team: 'ml' }, meta: null });
    expect(body.scope).toEqual({ project_id: a.projectId });
    // Headers: ours, the user's less the reserved names.
    expect(r!.headers).toMatchObject({
      'content-type': 'application/json', 'user-agent': 'Agenta-Webhook/1.0', 'x-agenta-event-type': 'traces.queried',
      'x-agenta-delivery-id': id, 'x-agenta-event-id': eventId, 'idempotency-key': id, 'x-team': 'ml',
    });
    expect(r!.headers.authorization).toBeUndefined();
    expect(r!.headers.host).toBe(new URL(rx.base).host);
    // Recorded: success, credentials redacted.
    const d = await finalDelivery(a, id);
    expect(d).toMatchObject({ id, subscription_id: s.id, event_id: eventId, status: { code: '200', message: 'success' } });
    expect(d.data).toMatchObject({ event_type: 'traces.queried', url: `${rx.base}${path}`, response: { status_code: 200, body: 'got it' }, attempts: 1 });
    expect(d.data.headers['X-Agenta-Signature']).toBe('[REDACTED]');
    expect(d.data.headers['Idempotency-Key']).toBe(id);
    expect(d.data.payload).toEqual(JSON.parse(raw));
    expect(JSON.stringify(d)).not.toContain(s.secret);
  });

  it('when a subscription uses authorization mode, then its secret is sent raw as Authorization and recorded redacted', async () => {
    const path = `/ok/${marker()}`;
    const secret = `Token ${marker()}`;
    const s = await subscribe(a, path, { auth_mode: 'authorization', event_types: ['traces.fetched'] }, { secret });
    const eventId = await emit(a, 'traces.fetched');
    const [r] = await eventually(async () => at(path), (x) => x.length === 1);
    expect(r!.headers.authorization).toBe(secret);
    expect(r!.headers['x-agenta-signature']).toBeUndefined();
    const d = await finalDelivery(a, deliveryIdOf(eventId, s.id));
    expect(d.data.headers.Authorization).toBe('[REDACTED]');
    expect(JSON.stringify(d)).not.toContain(secret);
  });

  it('when a subscription is stopped, asks for other types, or belongs to another project, then it gets nothing; tested events are not fanned out', async () => {
    const [all, stopped, other, foreign] = [`/ok/${marker()}`, `/ok/${marker()}`, `/ok/${marker()}`, `/ok/${marker()}`];
    const sAll = await subscribe(a, all);
    const sStopped = await subscribe(a, stopped);
    expect((await call('POST', `/webhooks/subscriptions/${sStopped.id}/stop`, a)).body.subscription.flags.is_active).toBe(false);
    await subscribe(a, other, { event_types: ['testcases.fetched'] });
    await subscribe(b, foreign);
    await emit(a, 'webhooks.subscriptions.tested', { subscription_id: sAll.id });
    const eventId = await emit(a, 'queries.revisions.committed');
    await eventually(async () => at(all), (x) => x.length === 1);
    // The stopped one, the other type's and the other project's would have had it by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(at(all)).toHaveLength(1);
    expect(JSON.parse(at(all)[0]!.raw.toString()).event.event_id).toBe(eventId);
    expect(at(stopped)).toHaveLength(0);
    expect(at(other)).toHaveLength(0);
    expect(at(foreign)).toHaveLength(0);
    const listed = await call('POST', '/webhooks/deliveries/query', a, { delivery: { subscription_id: sStopped.id } });
    expect(listed.body).toEqual({ count: 0, deliveries: [] });
  });

  it('when the receiver answers 500 then 200, then the delivery succeeds on the retry with the same Idempotency-Key', async () => {
    const path = `/flaky/${marker()}`;
    const s = await subscribe(a, path, { event_types: ['traces.queried'] });
    const eventId = await emit(a, 'traces.queried');
    const id = deliveryIdOf(eventId, s.id);
    const d = await finalDelivery(a, id);
    expect(d.status).toMatchObject({ code: '200', message: 'success' });
    expect(d.data.attempts).toBe(2);
    const got = at(path);
    expect(got).toHaveLength(2);
    expect(got.map((r) => r.headers['idempotency-key'])).toEqual([id, id]);
    // Each attempt signs anew; both verify.
    for (const r of got) expect(verifySignature(s.secret, r.raw, r.headers['x-agenta-signature'] as string)).toBe(true);
    const gap = got[1]!.at - got[0]!.at;
    console.log(`[timing] 500 → retry after ${gap} ms (WEBHOOK_RETRY_BASE_MS=200: first retry waits 100..200 ms)`);
    expect(gap).toBeGreaterThanOrEqual(100);
    expect(gap).toBeLessThan(3000);
  });

  it('when the receiver answers 400, then the delivery fails at once, without a retry', async () => {
    const path = `/reject/${marker()}`;
    const s = await subscribe(a, path, { event_types: ['traces.queried'] });
    const eventId = await emit(a, 'traces.queried');
    const d = await finalDelivery(a, deliveryIdOf(eventId, s.id));
    expect(d.status).toMatchObject({ code: '400', message: 'failed' });
    expect(d.data).toMatchObject({ response: { status_code: 400, body: 'no thanks' }, attempts: 1 });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(at(path)).toHaveLength(1);
  });

  it('when a receiver never answers, then its deliveries are retried and fail with code "0", while another subscription gets the same events promptly', async () => {
    const dead = `/dead/${marker()}`;
    const live = `/ok/${marker()}`;
    const sDead = await subscribe(a, dead, { event_types: ['testcases.queried'] });
    const sLive = await subscribe(a, live, { event_types: ['testcases.queried'] });
    const started = Date.now();
    const events: string[] = [];
    for (let i = 0; i < 4; i++) events.push(await emit(a, 'testcases.queried', { i }));
    await eventually(async () => at(live), (x) => x.length === 4, 10_000);
    const liveMs = Math.max(...at(live).map((r) => r.at)) - started;
    console.log(`[timing] 4 events to a live receiver beside a dead one: all delivered within ${liveMs} ms`);
    // Not held up by the dead receiver's 800 ms timeouts (4 events × 4 attempts of it).
    expect(liveMs).toBeLessThan(2500);
    const finals = await Promise.all(events.map((e) => finalDelivery(a, deliveryIdOf(e, sDead.id), 40_000)));
    for (const d of finals) {
      expect(d.status).toMatchObject({ code: '0', message: 'failed' });
      expect(d.data.error).toMatch(/^Timeout/);
      expect(d.data.attempts).toBe(4);
    }
    const first = at(dead).filter((r) => r.headers['idempotency-key'] === deliveryIdOf(events[0]!, sDead.id)).map((r) => r.at);
    expect(first).toHaveLength(4);
    console.log(`[timing] dead receiver, attempt starts relative to the first (timeout 800 ms, base 200 ms): ${first.map((x) => x - first[0]!).join(', ')} ms`);
    for (const e of events) expect((await delivery(a, deliveryIdOf(e, sLive.id))).body.delivery.status.code).toBe('200');
  });

  it('when a subscription is stopped or deleted while its delivery waits for a retry, then the delivery is cancelled (recorded) or dropped with its deliveries', async () => {
    const [stopPath, deletePath] = [`/dead/${marker()}`, `/dead/${marker()}`];
    const toStop = await subscribe(a, stopPath, { event_types: ['testsets.revisions.committed'] });
    const toDelete = await subscribe(a, deletePath, { event_types: ['testsets.revisions.committed'] });
    const eventId = await emit(a, 'testsets.revisions.committed');
    const [stopId, deleteId] = [deliveryIdOf(eventId, toStop.id), deliveryIdOf(eventId, toDelete.id)];
    await eventually(() => Promise.all([delivery(a, stopId), delivery(a, deleteId)]), (rs) => rs.every((r) => r.body?.delivery?.status.message === 'retrying'));
    expect((await call('POST', `/webhooks/subscriptions/${toStop.id}/stop`, a)).status).toBe(200);
    expect((await call('DELETE', `/webhooks/subscriptions/${toDelete.id}`, a)).status).toBe(204);
    const cancelled = await finalDelivery(a, stopId);
    expect(cancelled.status).toMatchObject({ message: 'failed' });
    expect(cancelled.data.error).toMatch(/stopped/);
    expect(at(stopPath).length).toBeLessThanOrEqual(2);
    // The deleted subscription's delivery is gone, and no late record brings it back.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await delivery(a, deleteId)).status).toBe(404);
    expect(at(deletePath).length).toBeLessThanOrEqual(2);
  });
});

describe('deliveries API', () => {
  let sub: any;
  beforeAll(async () => { sub = await subscribe(a, `/ok/${marker()}`, { event_types: [] }); });

  const createDelivery = (acc: TestAccount, delivery: Record<string, unknown>) => call('POST', '/webhooks/deliveries', acc, { delivery });

  it('when a delivery is created twice for the same pair, then the second keeps the id and overwrites status and data', async () => {
    const eventId = randomUUID();
    const id = randomUUID();
    const first = await createDelivery(a, { id, subscription_id: sub.id, event_id: eventId, status: { code: '500', message: 'failed' }, data: { url: 'https://example.com/x', error: 'boom' } });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(1);
    expect(first.body.delivery).toMatchObject({ id, subscription_id: sub.id, event_id: eventId, status: { code: '500', message: 'failed', timestamp: expect.any(String) }, data: { url: 'https://example.com/x', error: 'boom' } });
    const second = await createDelivery(a, { id: randomUUID(), subscription_id: sub.id, event_id: eventId, status: { code: '200', message: 'success' }, data: { url: 'https://example.com/y' } });
    expect(second.status).toBe(200);
    expect(second.body.delivery).toMatchObject({ id, status: { code: '200', message: 'success' }, data: { url: 'https://example.com/y' } });
    expect(second.body.delivery.data).not.toHaveProperty('error');
    expect(second.body.delivery.created_at).toBe(first.body.delivery.created_at);
    expect((await delivery(a, id)).body).toEqual(second.body);
    // Without an id, a new pair takes the derived delivery id.
    const e2 = randomUUID();
    const derived = await createDelivery(a, { subscription_id: sub.id, event_id: e2, status: { code: '200' } });
    expect(derived.body.delivery.id).toBe(deliveryIdOf(e2, sub.id));
    expect(derived.body.delivery).not.toHaveProperty('data');
  });

  it('when deliveries are queried, then filters apply and pages follow created_at descending', async () => {
    const s2 = await subscribe(a, `/ok/${marker()}`, { event_types: [] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await createDelivery(a, { subscription_id: s2.id, event_id: randomUUID(), status: { code: i % 2 ? '500' : '200' } });
      ids.push(r.body.delivery.id);
    }
    const all = await call('POST', '/webhooks/deliveries/query', a, { delivery: { subscription_id: s2.id } });
    expect(all.body.count).toBe(5);
    expect(all.body.deliveries.map((d: any) => d.id)).toEqual([...ids].reverse());
    const failed = await call('POST', '/webhooks/deliveries/query', a, { delivery: { subscription_id: s2.id, status: { code: '500' } } });
    expect(failed.body.deliveries.map((d: any) => d.id)).toEqual([ids[3], ids[1]]);
    const one = await call('POST', '/webhooks/deliveries/query', a, { delivery: { event_id: all.body.deliveries[2].event_id } });
    expect(one.body.deliveries.map((d: any) => d.id)).toEqual([ids[2]]);
    // Paging: limit 2, then `next` = the last id seen.
    const pages: string[][] = [];
    let next: string | undefined;
    for (let i = 0; i < 4; i++) {
      const p = await call('POST', '/webhooks/deliveries/query', a, { delivery: { subscription_id: s2.id }, windowing: { limit: 2, ...(next ? { next } : {}) } });
      expect(p.status).toBe(200);
      pages.push(p.body.deliveries.map((d: any) => d.id));
      if (p.body.count === 0) break;
      next = p.body.deliveries[p.body.count - 1].id;
    }
    expect(pages).toEqual([[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]], []]);
    const asc = await call('POST', '/webhooks/deliveries/query', a, { delivery: { subscription_id: s2.id }, windowing: { order: 'ascending', limit: 3 } });
    expect(asc.body.deliveries.map((d: any) => d.id)).toEqual(ids.slice(0, 3));
    const future = await call('POST', '/webhooks/deliveries/query', a, { delivery: { subscription_id: s2.id }, windowing: { oldest: new Date(Date.now() + 60_000).toISOString() } });
    expect(future.body).toEqual({ count: 0, deliveries: [] });
    expect((await call('POST', '/webhooks/deliveries/query', a, {})).body.count).toBeGreaterThanOrEqual(5);
  });

  it('when a subscription or a delivery is unknown, or belongs to another project, then it is a 404; bad input is a 422', async () => {
    const unknownSub = await createDelivery(a, { subscription_id: randomUUID(), event_id: randomUUID(), status: { code: '200' } });
    expect(unknownSub.status).toBe(404);
    expect(unknownSub.body).toEqual({ detail: 'Webhook subscription not found' });
    const missing = await delivery(a, randomUUID());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Webhook delivery not found' });
    expect((await call('GET', '/webhooks/deliveries/not-a-uuid', a)).status).toBe(422);
    expect((await createDelivery(a, { subscription_id: sub.id, event_id: randomUUID() })).status).toBe(422);
    // Tenancy: project b sees none of a's.
    const mine = await createDelivery(a, { subscription_id: sub.id, event_id: randomUUID(), status: { code: '200' } });
    expect((await delivery(b, mine.body.delivery.id)).status).toBe(404);
    expect((await createDelivery(b, { subscription_id: sub.id, event_id: randomUUID(), status: { code: '200' } })).status).toBe(404);
    const theirs = await call('POST', '/webhooks/deliveries/query', b, { delivery: { subscription_id: sub.id } });
    expect(theirs.body).toEqual({ count: 0, deliveries: [] });
  });
});

describe('deliveries answer size', () => {
  const query = (acc: TestAccount, body: unknown) => call('POST', '/webhooks/deliveries/query', acc, body);
  const walk = async (acc: TestAccount): Promise<{ pages: number[]; ids: string[]; largest: number }> => {
    const out = { pages: [] as number[], ids: [] as string[], largest: 0 };
    let next: string | undefined;
    for (let i = 0; i < 50; i++) {
      const r = await query(acc, next ? { windowing: { next } } : {});
      expect(r.status).toBe(200);
      if (r.body.count === 0) break;
      out.pages.push(r.body.count);
      out.largest = Math.max(out.largest, JSON.stringify(r.body).length);
      out.ids.push(...r.body.deliveries.map((d: any) => d.id));
      next = r.body.deliveries[r.body.count - 1].id;
    }
    return out;
  };

  it('when deliveries are large, then an answer ends near QUERY_MAX_RESULT_BYTES and `next` walks the rest once each', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const sub = await subscribe(acc, `/ok/${marker()}`, { event_types: [] });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await call('POST', '/webhooks/deliveries', acc, { delivery: { subscription_id: sub.id, event_id: randomUUID(), status: { code: '200' }, data: { url: 'https://example.com/x', payload: { i, parts: Array.from({ length: 20 }, () => 'x'.repeat(10_000)) } } } });
      expect(r.status).toBe(200);
      ids.push(r.body.delivery.id);
    }
    // About 200 KB each (a recorded delivery's data stays within 256 KiB) against a 3 MB budget:
    // 14 fit, the 15th would cross it.
    const first = await query(acc, {});
    expect(first.body.count).toBe(14);
    const all = await walk(acc);
    expect(all.pages).toEqual([14, 6]);
    expect(all.largest).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(all.ids).toEqual([...ids].reverse());
    expect((await query(acc, { windowing: { limit: 2 } })).body.count).toBe(2);
  }, 60_000);

  it('when more than 10,000 deliveries match, then an answer holds 10,000, `limit` or not, and `next` brings the rest', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const sub = await subscribe(acc, `/ok/${marker()}`, { event_types: [] });
    const db = new pg.Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO webhook_deliveries (id, project_id, subscription_id, event_id, status, created_at, last_record_id)
         SELECT gen_random_uuid(), $1::uuid, $2::uuid, gen_random_uuid(), '{"code":"200"}'::jsonb, now() - g * interval '1 millisecond', gen_random_uuid()
           FROM generate_series(1, 10001) AS g`,
        [acc.projectId, sub.id],
      );
    } finally { await db.end(); }
    const all = await query(acc, {});
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(10_000);
    expect((await query(acc, { windowing: { limit: 20_000 } })).body.count).toBe(10_000);
    const rest = await query(acc, { windowing: { next: all.body.deliveries[9_999].id } });
    expect(rest.body.count).toBe(1);
  }, 60_000);

  it('when the time bounds are ones Postgres refuses as text (year 0000, a +23:59 offset), then they bound by their instant', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const sub = await subscribe(acc, `/ok/${marker()}`, { event_types: [] });
    const d = (await call('POST', '/webhooks/deliveries', acc, { delivery: { subscription_id: sub.id, event_id: randomUUID(), status: { code: '200' } } })).body.delivery;
    const ids = async (windowing: Record<string, string>) => {
      const r = await query(acc, { windowing });
      expect(r.status).toBe(200);
      return r.body.deliveries.map((x: any) => x.id);
    };
    expect(await ids({ oldest: '0000-01-01T00:00:00Z' })).toEqual([d.id]);
    expect(await ids({ newest: '0000-01-01T00:00:00Z' })).toEqual([]);
    // +23:59 is almost a day earlier in UTC: a day ahead of now, it is still after the delivery.
    const dayAhead = new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);
    expect(await ids({ newest: `${dayAhead}+23:59`, oldest: '2000-01-01T00:00:00-23:59' })).toEqual([d.id]);
    expect(await ids({ oldest: `${dayAhead}-23:59` })).toEqual([]);
  });
});
