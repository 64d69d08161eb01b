// POST /events/query over the real stack: read events recorded by the query service behind the
// responses (only when a read found something), account facts published through the projector's
// outbox (a rejected commit never appears), filters, both orders with `next` cursors, permissions,
// tenancy, the size of one answer (QUERY_MAX_RESULT_BYTES, 1,000 events), the outbox relay publishing
// once and in order with two relays on one database, and a replay of platform.events.v1 into a fresh
// database that equals the live read model.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { decodeEvent, encodeEvent, topicsFor, uuidv7 } from '@llm/events';
import { createKafkaClient } from '@llm/kafka';
import { createLogger } from '@llm/logging';
import { migratePostgres, openPostgres } from '@llm/postgres';
import { ACCOUNTS_MIGRATIONS, createOutboxRelay } from '@llm/service-projector-accounts';
import { createEventsProjector } from '@llm/service-projector-events';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { createSessionCodec } from '@llm/web-session';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let a: TestAccount;
let other: TestAccount;
let db: pg.Client;
const marker = `m-${hex(4)}`;
const traceIds = Array.from({ length: 3 }, () => hex(16)).sort();

interface Ev { request_id: string; event_id: string; request_type: string; event_type: string; timestamp: string; attributes?: Record<string, any>; status_code?: string; created_at?: string }

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...headers, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const events = (body: unknown, acc: TestAccount = a) => call('POST', '/events/query', acc.auth, body);
const read = (method: string, path: string, requestId: string, body?: unknown) => call(method, path, { ...a.auth, 'x-request-id': requestId }, body);
const byRequest = async (requestId: string): Promise<Ev[]> => (await events({ event: { request_id: requestId } })).body.events;
const byMarker = { conditions: [{ field: 'attributes', key: 'tags.marker', value: marker }] };

/** One answer's byte budget here: a few 50 KB events, or 1,000 small ones (~340 bytes estimated each). */
const MAX_RESULT_BYTES = 400_000;

beforeAll(async () => {
  t = await startTestApp({ QUERY_MAX_RESULT_BYTES: String(MAX_RESULT_BYTES) });
  [a, other] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  const spans = traceIds.flatMap((trace_id) => {
    const root = hex(8);
    return [
      { trace_id, span_id: root, span_name: 'root', start_time: '2025-03-01T00:00:00Z', end_time: '2025-03-01T00:00:01Z', attributes: { 'tags.marker': marker } },
      { trace_id, span_id: hex(8), parent_id: root, span_name: 'child', start_time: '2025-03-01T00:00:00Z', end_time: '2025-03-01T00:00:01Z', attributes: { 'tags.marker': marker } },
    ];
  });
  expect((await call('POST', '/tracing/spans/ingest', a.auth, { spans })).status).toBe(202);
  await eventually(() => call('POST', '/spans/query', a.auth, { filtering: byMarker, windowing: { limit: 100 } }), (x) => x.body.count === 6, 30_000);
});
afterAll(async () => { await db?.end(); await t?.stop(); });

describe('read events', () => {
  const ids = { queried: randomUUID(), fetched: randomUUID(), listed: randomUUID(), spans: randomUUID(), tracing: randomUUID(), empty: randomUUID(), missing: randomUUID() };

  it('when traces are read, then each read that found something becomes one event with its count, ids and user', async () => {
    expect((await read('POST', '/traces/query', ids.queried, { filtering: byMarker })).body.count).toBe(3);
    expect((await read('GET', `/traces/${traceIds[0]}`, ids.fetched)).body.count).toBe(1);
    expect((await read('GET', `/traces?trace_ids=${traceIds[0]},${traceIds[1]}`, ids.listed)).body.count).toBe(2);
    expect((await read('POST', '/spans/query', ids.spans, { filtering: byMarker })).body.count).toBe(6);
    expect((await read('GET', `/tracing/traces/${traceIds[2]}`, ids.tracing)).body.count).toBe(1);
    // Found nothing: no event.
    expect((await read('POST', '/traces/query', ids.empty, { filtering: { conditions: [{ field: 'attributes', key: 'tags.marker', value: 'none' }] } })).body.count).toBe(0);
    expect((await read('GET', `/traces/${hex(16)}`, ids.missing)).body.count).toBe(0);

    const [queried] = await eventually(() => byRequest(ids.queried), (e) => e.length === 1);
    expect(queried).toMatchObject({ request_id: ids.queried, request_type: 'unknown', event_type: 'traces.queried', attributes: { user_id: a.userId, count: 3 } });
    expect([...queried!.attributes!.trace_ids].sort()).toEqual(traceIds);
    expect(queried!.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(Object.values(queried!).includes(null)).toBe(false);
    expect((await eventually(() => byRequest(ids.fetched), (e) => e.length === 1))[0]).toMatchObject({ event_type: 'traces.fetched', attributes: { user_id: a.userId, count: 1, trace_id: traceIds[0] } });
    const listed = (await eventually(() => byRequest(ids.listed), (e) => e.length === 1))[0]!;
    expect(listed).toMatchObject({ event_type: 'traces.fetched', attributes: { count: 2 } });
    expect([...listed.attributes!.trace_ids].sort()).toEqual(traceIds.slice(0, 2));
    const spans = (await eventually(() => byRequest(ids.spans), (e) => e.length === 1))[0]!;
    expect(spans).toMatchObject({ event_type: 'traces.queried', attributes: { count: 6 } });
    expect([...spans.attributes!.trace_ids].sort()).toEqual(traceIds);
    // The last read with a result is in: the ones without a result (queued in between, same
    // partition) would be too.
    expect((await eventually(() => byRequest(ids.tracing), (e) => e.length === 1))[0]).toMatchObject({ event_type: 'traces.fetched', attributes: { trace_id: traceIds[2] } });
    expect(await byRequest(ids.empty)).toEqual([]);
    expect(await byRequest(ids.missing)).toEqual([]);
  });

  it('when the log is queried with {}, then every event comes newest first and count is their number', async () => {
    const r = await events({});
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(r.body.events.length);
    expect(r.body.count).toBeGreaterThanOrEqual(5);
    const keys = r.body.events.map((e: Ev) => `${e.timestamp} ${e.event_id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(r.body.events[0].timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });

  it('when filters are given, then only matching events come; an unknown type is 422', async () => {
    const fetched = (await events({ event: { event_type: 'traces.fetched' } })).body.events as Ev[];
    expect(fetched.length).toBeGreaterThanOrEqual(3);
    expect(new Set(fetched.map((e) => e.event_type))).toEqual(new Set(['traces.fetched']));
    const one = fetched[1]!;
    expect((await events({ event: { event_id: one.event_id.toUpperCase() } })).body.events).toEqual([one]);
    expect((await events({ event: { request_type: 'router' } })).body).toEqual({ count: 0, events: [] });
    expect((await events({ event: { request_type: 'unknown', request_id: one.request_id } })).body.events).toEqual([one]);
    const bad = await events({ event: { event_type: 'traces.deleted' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'event', 'event_type']);
    expect((await events({ windowing: { limit: -1 } })).status).toBe(422);
  });

  it('when paging with limit and next, then both orders walk every event once, with or without the bound', async () => {
    const all = (await events({})).body.events as Ev[];
    const newest = await events({ windowing: { limit: 1 } });
    expect(newest.body).toEqual({ count: 1, events: [all[0]] });
    const walk = async (order: 'ascending' | 'descending', withBound: boolean): Promise<string[]> => {
      const seen: string[] = [];
      let last: Ev | undefined;
      for (let i = 0; i < 100; i++) {
        const bound = last && withBound ? (order === 'descending' ? { newest: last.timestamp } : { oldest: last.timestamp }) : {};
        const r = await events({ windowing: { order, limit: 2, ...bound, ...(last ? { next: last.event_id } : {}) } });
        expect(r.status).toBe(200);
        seen.push(...r.body.events.map((e: Ev) => e.event_id));
        if (r.body.count < 2) break;
        last = r.body.events[r.body.count - 1];
      }
      return seen;
    };
    // Read events of the walks themselves are not recorded (events are not traces): the log is still.
    const desc = all.map((e) => e.event_id);
    expect(await walk('descending', true)).toEqual(desc);
    expect(await walk('descending', false)).toEqual(desc);
    expect(await walk('ascending', true)).toEqual([...desc].reverse());
    expect(await walk('ascending', false)).toEqual([...desc].reverse());
    // Time bounds are inclusive.
    const mid = all[2]!;
    const upTo = (await events({ windowing: { newest: mid.timestamp } })).body.events as Ev[];
    expect(upTo.map((e) => e.event_id)).toEqual(desc.filter((_, i) => all[i]!.timestamp <= mid.timestamp));
    // A cursor that names no event of the project, without a bound: 422.
    expect((await events({ windowing: { next: randomUUID() } })).status).toBe(422);
  });
});

describe('answer size', () => {
  const platformEvent = (acc: TestAccount, eventId: string, timeUs: number, attributes: Record<string, unknown>) => encodeEvent('platform.event.recorded', {
    event_type: 'traces.fetched', request_type: 'unknown', status_code: '', status_message: '', attributes_json: JSON.stringify({ user_id: acc.userId, ...attributes }), user_id: acc.userId,
  }, { eventId, projectId: acc.projectId, organizationId: acc.organizationId, timeUs });
  const walk = async (acc: TestAccount, body: Record<string, unknown> = {}): Promise<{ pages: number[]; ids: string[]; largest: number }> => {
    const out = { pages: [] as number[], ids: [] as string[], largest: 0 };
    let next: string | undefined;
    for (let i = 0; i < 50; i++) {
      const r = await call('POST', '/events/query', acc.auth, { ...body, windowing: { ...(next ? { next } : {}) } });
      expect(r.status).toBe(200);
      if (r.body.count === 0) break;
      out.pages.push(r.body.count);
      out.largest = Math.max(out.largest, JSON.stringify(r.body).length);
      out.ids.push(...r.body.events.map((e: Ev) => e.event_id));
      next = r.body.events[r.body.count - 1].event_id;
    }
    return out;
  };

  it('when events are large, then an answer ends near QUERY_MAX_RESULT_BYTES and `next` walks the rest once each, in order', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'events-size' });
    const producer = await kafka.producer();
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const big = 'x'.repeat(50_000);
    const base = Date.now() * 1000;
    const ids = Array.from({ length: 12 }, () => uuidv7());
    await producer.send(topics.platform, ids.map((id, i) => ({ key: acc.projectId, value: platformEvent(acc, id, base + i * 1000, { i, big }) })));
    await producer.close();
    await eventually(() => call('POST', '/events/query', acc.auth, { event: { event_id: ids[11] } }), (r) => r.body.count === 1, 30_000);
    const first = await call('POST', '/events/query', acc.auth, {});
    expect(first.status).toBe(200);
    // 50 KB each against a 400 KB budget: 7 fit (estimated bytes), the 8th would cross it.
    expect(first.body.count).toBe(7);
    expect(JSON.stringify(first.body).length).toBeLessThan(MAX_RESULT_BYTES);
    const all = await walk(acc);
    expect(all.pages).toEqual([7, 5]);
    expect(all.ids).toEqual([...ids].reverse());
    // A limit below the budget is kept.
    expect((await call('POST', '/events/query', acc.auth, { windowing: { limit: 3 } })).body.count).toBe(3);
  }, 60_000);

  it('when more than 1,000 events match {}, then an answer holds 1,000 and `next` brings the rest', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'events-cap' });
    const producer = await kafka.producer();
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const base = Date.now() * 1000;
    const ids = Array.from({ length: 1_001 }, () => uuidv7());
    for (let i = 0; i < ids.length; i += 250) {
      await producer.send(topics.platform, ids.slice(i, i + 250).map((id, j) => ({ key: acc.projectId, value: platformEvent(acc, id, base + (i + j) * 10, { i: i + j }) })));
    }
    await producer.close();
    // One key, one partition: once the last is in, every one is.
    await eventually(() => call('POST', '/events/query', acc.auth, { event: { event_id: ids[1_000] } }), (r) => r.body.count === 1, 30_000);
    const all = await walk(acc);
    expect(all.pages).toEqual([1_000, 1]);
    expect(all.ids).toEqual([...ids].reverse());
    expect((await call('POST', '/events/query', acc.auth, { windowing: { limit: 5_000 } })).body.count).toBe(1_000);
  }, 60_000);
});

describe('outbox relay', () => {
  it('when two relays share one outbox (two replicas, or a rebuild beside the live projector), then every row is published once, in order', async () => {
    const name = `relay_${hex(4)}`;
    await db.query(`CREATE DATABASE ${name}`);
    const url = t.databaseUrl.replace(/\/[^/]*$/, `/${name}`);
    const [p1, p2] = [openPostgres(url), openPostgres(url)];
    const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'events-relay' });
    const producer = await kafka.producer();
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const log = createLogger({ name: 'relay', level: 'silent' });
    const projectId = randomUUID();
    const base = Date.now() * 1000;
    const ids = Array.from({ length: 600 }, () => uuidv7());
    const seen: string[] = [];
    const consumer = kafka.consumer({ groupId: `relay-${hex(4)}`, topics: [topics.platform], fromBeginning: true });
    try {
      await migratePostgres(p1, ACCOUNTS_MIGRATIONS);
      await p1.query(
        'INSERT INTO platform_outbox (event_id, project_id, record) SELECT id, $1::uuid, rec FROM unnest($2::uuid[], $3::bytea[]) AS x(id, rec)',
        [projectId, ids, ids.map((id, i) => encodeEvent('platform.event.recorded', {
          event_type: 'traces.fetched', request_type: 'unknown', status_code: '', status_message: '', attributes_json: JSON.stringify({ i }), user_id: '',
        }, { eventId: id, projectId, timeUs: base + i }))],
      );
      const relays = [p1, p2].map((pool) => createOutboxRelay({ pool, producer, topics, log, batch: 50, intervalMs: 50 }));
      for (const r of relays) r.start();
      for (let i = 0; i < 20; i++) for (const r of relays) r.kick();
      await eventually(async () => (await p1.query('SELECT count(*)::int AS n FROM platform_outbox')).rows[0].n, (n) => n === 0, 30_000);
      await Promise.all(relays.map((r) => r.stop()));
      await consumer.start(async (b) => {
        for (const r of b.records) {
          if (r.key !== projectId || !r.value) continue;
          const d = decodeEvent(r.value);
          if (d.ok) seen.push(d.value.eventId);
        }
      });
      await eventually(async () => seen.length, (n) => n >= ids.length, 30_000);
      // Duplicates would have arrived with the rest (one partition, sent before the outbox emptied).
      await new Promise((r) => setTimeout(r, 500));
      expect(seen.length).toBe(ids.length);
      expect(seen).toEqual(ids);
    } finally {
      await consumer.stop().catch(() => undefined);
      await producer.close();
      await Promise.all([p1.end(), p2.end()]);
    }
  }, 90_000);
});

describe('permissions and tenancy', () => {
  it('when a viewer asks, then 403; a developer may read the log', async () => {
    const v = await createAccount(t.baseUrl, t.adminToken);
    const setRole = (role: string) => call('POST', '/admin/simple/accounts/organizations/memberships/', { Authorization: `Access ${t.adminToken}` }, { organization_id: a.organizationId, user: { id: v.userId }, role });
    expect((await setRole('viewer')).status).toBe(200);
    const sessions = createSessionCodec({ secrets: t.secrets.SESSION_SECRETS.split(','), secure: false });
    const cookie = { Cookie: `${sessions.cookieName}=${sessions.issue({ user_id: v.userId, email: v.email, identities: ['email:otp'] }).token}` };
    const asV = () => call('POST', `/events/query?project_id=${a.projectId}`, cookie, {});
    expect((await asV()).status).toBe(403);
    expect((await setRole('developer')).status).toBe(200);
    const r = await asV();
    expect(r.status).toBe(200);
    expect(r.body.count).toBeGreaterThan(0);
  });

  it('when another project asks, then none of this project\'s events are there', async () => {
    const mine = new Set(((await events({})).body.events as Ev[]).map((e) => e.event_id));
    const theirs = (await events({}, other)).body.events as Ev[];
    expect(theirs.filter((e) => mine.has(e.event_id))).toEqual([]);
    expect((await events({ event: { request_id: (await events({})).body.events[0].request_id } }, other)).body.count).toBe(0);
  });
});

describe('account facts', () => {
  it('when saved-query revisions are committed, then each accepted one is an event with its references; a rejected one never is', async () => {
    const q = await call('POST', '/simple/queries/', a.auth, { query: { slug: `audited-${hex(4)}`, data: { filtering: { conditions: [] } } } });
    expect(q.status).toBe(200);
    const variant = q.body.query.variant_id as string;
    // Four commits race on the variant: each lands once, with its own version (the log decides).
    const rs = await Promise.all(Array.from({ length: 4 }, () => call('POST', '/queries/revisions/commit', a.auth, { query_revision: { query_variant_id: variant, message: 'second' } })));
    expect(rs.map((r) => r.body.query_revision.version).sort()).toEqual(['2', '3', '4', '5']);
    // One that loses in the log itself (claims a taken version: the projector's rule refuses it).
    const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'events-test' });
    const producer = await kafka.producer();
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const loser = randomUUID();
    const loserRevision = randomUUID();
    await producer.send(topics.accounts, [{ key: `project:${a.projectId}:queries`, value: encodeEvent('accounts.query.revision.added', {
      query_id: q.body.query.id, variant_id: variant, revision_id: loserRevision, slug: hex(6), version: 3,
      header: { name: '', description: '', tags_json: '', meta_json: '', flags_json: '' }, data_json: '', message: 'lost',
    }, { eventId: loser, projectId: a.projectId, organizationId: a.organizationId, actorId: a.userId }) }]);
    await producer.close();
    await eventually(async () => (await db.query('SELECT status FROM events WHERE event_id = $1', [loser])).rows[0]?.status, (s) => s === 'rejected');
    // A later accepted commit: once its event is in, the loser's would be too (one accounts partition, one outbox order).
    const third = await call('POST', '/queries/revisions/commit', a.auth, { query_revision: { query_variant_id: variant, message: 'third' } });
    expect(third.body.query_revision.version).toBe('6');
    const committed = async (): Promise<Ev[]> => ((await events({ event: { event_type: 'queries.revisions.committed' } })).body.events as Ev[])
      .filter((e) => e.attributes?.references?.query?.id === q.body.query.id);
    const evs = await eventually(committed, (e) => e.some((x) => x.attributes!.references.query_revision.version === '6'));
    expect(evs.map((e) => e.attributes!.references.query_revision.version)).toEqual(['6', '5', '4', '3', '2', '1', '0']);
    expect(evs[0]!.attributes!.message).toBe('third');
    expect(evs.some((e) => e.attributes!.references.query_revision.id === loserRevision)).toBe(false);
    expect(evs[0]).toMatchObject({
      request_type: 'unknown',
      attributes: {
        user_id: a.userId,
        references: {
          query: { id: q.body.query.id, slug: q.body.query.slug },
          query_variant: { id: variant, slug: third.body.query_revision.variant_slug },
          query_revision: { id: third.body.query_revision.id, slug: third.body.query_revision.slug, version: '6' },
        },
      },
    });
    // Published rows leave the outbox.
    await eventually(async () => (await db.query('SELECT count(*)::int AS n FROM platform_outbox')).rows[0].n, (n) => n === 0);
    // Other projects see none of it.
    expect((await events({ event: { event_type: 'queries.revisions.committed' } }, other)).body.count).toBe(0);
  });
});

describe('poison records', () => {
  it('when an undecodable record is on the platform topic, then it is dead-lettered and the events behind it still land', async () => {
    const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'events-poison' });
    const producer = await kafka.producer();
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const good = randomUUID();
    const attributes = JSON.stringify({ user_id: a.userId, count: 1, trace_id: traceIds[0] });
    // Same key, same partition: the good record is behind the bad ones.
    await producer.send(topics.platform, [
      { key: a.projectId, value: Buffer.from('not an envelope') },
      { key: a.projectId, value: encodeEvent('platform.event.recorded', { event_type: 'traces.fetched', request_type: 'unknown', status_code: '', status_message: '', attributes_json: '[1]', user_id: '' }, { projectId: a.projectId }) },
      { key: a.projectId, value: encodeEvent('platform.event.recorded', { event_type: 'traces.fetched', request_type: 'unknown', status_code: '', status_message: '', attributes_json: attributes, user_id: a.userId }, { projectId: a.projectId, eventId: good }) },
    ]);
    await producer.close();
    expect((await eventually(() => events({ event: { event_id: good } }), (r) => r.body.count === 1)).body.events[0].attributes).toEqual(JSON.parse(attributes));
    const dead: Array<{ error: string; value_base64: string | null }> = [];
    const consumer = kafka.consumer({ groupId: `dlq-${hex(4)}`, topics: [topics.dlq(topics.platform)], fromBeginning: true });
    await consumer.start(async (b) => { for (const r of b.records) dead.push(JSON.parse(r.value?.toString() ?? '{}')); });
    try {
      await eventually(async () => dead.length, (n) => n >= 2, 30_000);
      expect(dead.map((d) => Buffer.from(d.value_base64 ?? '', 'base64').toString())).toContain('not an envelope');
      expect(dead.map((d) => d.error)).toContain('attributes are not a JSON object');
    } finally { await consumer.stop(); }
  });
});

describe('events replay', () => {
  let rebuilt: Clickhouse | undefined;
  afterAll(async () => { await rebuilt?.close(); });

  it('when platform.events.v1 is replayed from offset 0 into a fresh database, then its rows equal the live read model', async () => {
    const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'events-replay' });
    const producer = await kafka.producer();
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const live = await openClickhouse({ dataDir: t.clickhouse.dataDir, database: t.clickhouse.database });
    rebuilt = await openClickhouse({ dataDir: t.clickhouse.dataDir, database: `r_${hex(4)}` });
    const projector = createEventsProjector({ kafka, producer, ch: rebuilt, topics, log: createLogger({ name: 'replay', level: 'silent' }), groupId: `replay-${hex(4)}` });
    const dump = async (ch: Clickhouse): Promise<unknown[]> => (await ch.client.query({
      query: `SELECT * FROM ${ch.database}.platform_events FINAL ORDER BY project_id, timestamp, event_id`, format: 'JSONEachRow',
    })).json();
    try {
      await projector.start();
      // Both converge once each consumed the whole topic; nothing is recorded meanwhile (this test reads no traces).
      const [expected, got] = await eventually(async () => [await dump(live), await dump(rebuilt!)],
        ([l, r]) => l.length >= 8 && JSON.stringify(l) === JSON.stringify(r), 30_000);
      expect(got).toEqual(expected);
    } finally {
      await projector.stop();
      await producer.close();
      await live.close();
    }
  });
});
