// Issue 9 ("a projector never stalls on one event"): against the real Kafka, Postgres and ClickHouse.
// - An accounts event the store can never hold (NUL text) is recorded as rejected with its reason
//   and dead-lettered; every account write behind it still works.
// - ClickHouse refusing inserts for capacity (TOO_MANY_PARTS) is waited out: nothing is
//   dead-lettered, and every acknowledged span becomes visible once ClickHouse accepts again.
// - Dead letters are re-driven to their topic (npm run redrive), continuing where the last run stopped.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { encodeEvent } from '@llm/events';
import { createKafkaClient, redriveDeadLetters, type KafkaClient, type Producer } from '@llm/kafka';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let acc: TestAccount;
let ch: Clickhouse;
let kafka: KafkaClient;
let producer: Producer;
let db: pg.Client;

beforeAll(async () => {
  t = await startTestApp();
  acc = await createAccount(t.baseUrl, t.adminToken);
  ch = await openClickhouse({ dataDir: t.clickhouse.dataDir, database: t.clickhouse.database });
  kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'test' });
  producer = await kafka.producer();
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => { await producer?.close(); await db?.end(); await ch?.close(); await t?.stop(); });

async function dlqValues(topic: string): Promise<Array<{ error: string; key: string | null; topic: string }>> {
  const admin = await kafka.admin();
  try {
    const end = await admin.endOffsets(topic);
    const total = [...end.values()].reduce((a, b) => a + Number(b), 0);
    if (total === 0) return [];
    const seen: Array<{ error: string; key: string | null; topic: string }> = [];
    const consumer = kafka.consumer({ groupId: `test-read-${hex(4)}`, topics: [topic], fromBeginning: true });
    await consumer.start(async (b) => { for (const r of b.records) seen.push(JSON.parse(r.value!.toString())); });
    await eventually(async () => seen.length, (n) => n >= total, 20_000);
    await consumer.stop();
    return seen;
  } finally { await admin.close(); }
}

async function adminCreate(email: string): Promise<number> {
  const r = await fetch(`${t.baseUrl}/admin/simple/accounts/`, {
    method: 'POST', headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ accounts: { u: { user: { email } } } }),
  });
  return r.status;
}

describe('accounts projector', () => {
  it('when an event holds text Postgres cannot store, then it is recorded as rejected and dead-lettered, and account writes behind it still work', async () => {
    const eventId = randomUUID();
    const queryId = randomUUID();
    const value = encodeEvent('accounts.query.created', {
      query_id: queryId, slug: `s-${hex(4)}`, name: 'a\u0000b', description: '', variant_id: randomUUID(), variant_slug: 'default',
      revision: { id: randomUUID(), slug: hex(6), version: 1, filtering_json: '', windowing_json: '', focus: 'span', format: 'agenta', message: '' },
    } as never, { eventId, projectId: acc.projectId, organizationId: acc.organizationId, requestId: 'poison', actorId: acc.userId, aggregateId: `project:${acc.projectId}:queries`, timeUs: Date.now() * 1000 });
    await producer.send(`${t.topicPrefix}accounts.events.v1`, [{ key: `project:${acc.projectId}:queries`, value }]);

    const row = await eventually(
      () => db.query<{ status: string; rejection_code: string | null; rejection: string | null; payload: { name: string } }>('SELECT status, rejection_code, rejection, payload FROM events WHERE event_id = $1', [eventId]).then((r) => r.rows[0]),
      (r) => r !== undefined, 20_000);
    expect(row!.status).toBe('rejected');
    expect(row!.rejection_code, String(row!.rejection)).toBe('unstorable');
    expect(row!.rejection).toMatch(/could not apply/);
    expect(row!.payload.name).toBe('a\uFFFDb');
    // Writes behind it: a new account, an API key, a saved query — each answered at once.
    expect(await adminCreate(`${hex(6)}@test.example.com`)).toBe(200);
    const key = await fetch(`${t.baseUrl}/keys`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'after-poison' }) });
    expect(key.status).toBeLessThan(300);
    const dead = await dlqValues(`${t.topicPrefix}accounts.events.v1.dlq`);
    expect(dead.some((d) => d.key === `project:${acc.projectId}:queries` && /could not apply/.test(d.error))).toBe(true);
    const metrics = await fetch(`${t.managementUrl}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/projector_accounts_events_rejected_total [1-9]/);
  });
});

describe('span projector', () => {
  async function visible(traceIds: string[]): Promise<number> {
    const r = await ch.client.query({
      query: `SELECT count() AS n FROM ${ch.database}.spans FINAL WHERE project_id = {p:String} AND trace_id IN {ids:Array(String)} AND is_deleted = 0`,
      query_params: { p: acc.projectId, ids: traceIds }, format: 'JSONEachRow',
    });
    return Number((await r.json<{ n: string }>())[0]!.n);
  }
  async function ingest(spans: unknown[]): Promise<void> {
    const r = await fetch(`${t.baseUrl}/tracing/spans/ingest`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ spans }) });
    expect(r.status).toBe(202);
  }

  it('when ClickHouse refuses inserts for capacity (too many parts), then the projector waits, nothing is dead-lettered, and every acknowledged span arrives', async () => {
    const dlq = `${t.topicPrefix}tracing.spans.v1.dlq`;
    const deadBefore = (await dlqValues(dlq)).length;
    const seed = hex(16);
    await ingest([{ trace_id: seed, span_id: hex(8) }]);
    await eventually(() => visible([seed]), (n) => n === 1);
    const tables = [`${ch.database}.spans`, `${ch.database}.trace_index`];
    for (const tb of tables) {
      await ch.client.command({ query: `SYSTEM STOP MERGES ${tb}` });
      await ch.client.command({ query: `ALTER TABLE ${tb} MODIFY SETTING parts_to_delay_insert = 1, parts_to_throw_insert = 1` });
    }
    const traces = Array.from({ length: 20 }, () => hex(16));
    try {
      for (const id of traces) await ingest([{ trace_id: id, span_id: hex(8), span_name: 'during-refusal' }]);
      // While refused: nothing new is visible, nothing is dead-lettered.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(await visible(traces)).toBe(0);
    } finally {
      for (const tb of tables) {
        await ch.client.command({ query: `ALTER TABLE ${tb} RESET SETTING parts_to_delay_insert, parts_to_throw_insert` });
        await ch.client.command({ query: `SYSTEM START MERGES ${tb}` });
      }
    }
    const seen = await eventually(() => visible(traces), (n) => n === traces.length, 45_000);
    const dead = (await dlqValues(dlq)).length - deadBefore;
    console.log(`fault (d) ClickHouse refusing inserts (TOO_MANY_PARTS, 3 s): acknowledged ${traces.length}, visible ${seen}, dead-lettered ${dead}`);
    expect(seen).toBe(traces.length);
    expect(dead).toBe(0);
    const metrics = await fetch(`${t.managementUrl}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/projector_span_batch_retries_total [1-9]/);
  });

  it('when dead letters are re-driven, then they go back to their topic once, and a second run continues where the first stopped', async () => {
    const topic = `${t.topicPrefix}tracing.spans.v1`;
    const dlq = `${topic}.dlq`;
    await producer.send(topic, [{ key: `poison-${hex(4)}`, value: Buffer.from('not an event') }]);
    const before = await eventually(() => dlqValues(dlq), (d) => d.some((x) => x.key?.startsWith('poison-')), 20_000);
    const first = await redriveDeadLetters({ kafka, producer, topic, dlqTopic: dlq });
    expect(first.total).toBe(before.length);
    expect(first.redriven).toBe(before.length);
    // Still undecodable: the projector sets each aside again, with the same reason.
    const after = await eventually(() => dlqValues(dlq), (d) => d.length === before.length * 2, 20_000);
    expect(after.length).toBe(before.length * 2);
    const second = await redriveDeadLetters({ kafka, producer, topic, dlqTopic: dlq });
    expect(second.total).toBe(before.length);
  });
});
