// The span projector against the real Kafka and ClickHouse: stopped and restarted mid-stream it
// neither loses nor duplicates a span; undecodable records go to the dead-letter topic; a replay
// rebuilds exactly the live read model.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { createKafkaClient, type KafkaClient } from '@llm/kafka';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let acc: TestAccount;
let ch: Clickhouse;
let kafka: KafkaClient;

beforeAll(async () => {
  t = await startTestApp();
  acc = await createAccount(t.baseUrl, t.adminToken);
  ch = await openClickhouse({ dataDir: t.clickhouse.dataDir, database: t.clickhouse.database });
  kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'test' });
});
afterAll(async () => { await ch?.close(); await t?.stop(); });

async function ingest(spans: unknown[]): Promise<void> {
  const r = await fetch(`${t.baseUrl}/tracing/spans/ingest`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ spans }) });
  expect(r.status).toBe(202);
}

async function liveRows(): Promise<{ n: number; dup: number; digest: string }> {
  const r = await ch.client.query({
    query: `SELECT count() AS n, toString(groupBitXor(cityHash64(trace_id, span_id, attributes, tokens_cumulative, costs_cumulative, version))) AS digest
            FROM ${ch.database}.spans FINAL WHERE project_id = {p:String} AND is_deleted = 0`,
    query_params: { p: acc.projectId }, format: 'JSONEachRow',
  });
  const [row] = await r.json<{ n: string; digest: string }>();
  const d = await ch.client.query({
    query: `SELECT count() AS dup FROM (SELECT span_id FROM ${ch.database}.spans FINAL WHERE project_id = {p:String} AND is_deleted = 0 GROUP BY trace_id, span_id HAVING count() > 1)`,
    query_params: { p: acc.projectId }, format: 'JSONEachRow',
  });
  const [dup] = await d.json<{ dup: string }>();
  return { n: Number(row!.n), dup: Number(dup!.dup), digest: row!.digest };
}

describe('projector', () => {
  it('when the projector stops and restarts mid-stream, then every span is stored exactly once', async () => {
    const traces = Array.from({ length: 40 }, () => ({ id: hex(16), root: hex(8) }));
    const batch = (slice: typeof traces) => slice.flatMap(({ id, root }) => [
      { trace_id: id, span_id: root, span_name: 'root', attributes: { 'ag.metrics.tokens.incremental.total': 1 } },
      ...Array.from({ length: 4 }, () => ({ trace_id: id, span_id: hex(8), parent_id: root, span_name: 'child', attributes: { 'ag.metrics.tokens.incremental.total': 2 } })),
    ]);
    await ingest(batch(traces.slice(0, 10)));
    const stopping = t.app.stopSpansProjector();
    await Promise.all([ingest(batch(traces.slice(10, 20))), ingest(batch(traces.slice(20, 30)))]);
    await stopping;
    await ingest(batch(traces.slice(30, 40)));
    await t.app.startSpansProjector();
    const rows = await eventually(liveRows, (r) => r.n >= 200, 30_000);
    expect(rows.n).toBe(200);
    expect(rows.dup).toBe(0);
    const root = await fetch(`${t.baseUrl}/spans/${traces[35]!.id}/${traces[35]!.root}`, { headers: acc.auth }).then((r) => r.json() as Promise<any>);
    expect(root.span.attributes.ag.metrics.tokens.cumulative.total).toBe(9);
  });

  it('when a trace continues after a projector restart (empty cache), then its stored spans are read back and rolled up', async () => {
    const trace_id = hex(16);
    const root = hex(8);
    const child = { trace_id, span_id: hex(8), parent_id: root, span_name: 'child', start_time: '2025-07-01T00:00:01Z', end_time: '2025-07-01T00:00:02Z', attributes: { 'ag.metrics.tokens.incremental.total': 4 } };
    await ingest([child]);
    await eventually(() => fetch(`${t.baseUrl}/spans/${trace_id}/${child.span_id}`, { headers: acc.auth }).then((r) => r.json() as Promise<any>), (b) => b.count === 1);
    await t.app.restartSpansProjector();
    await ingest([{ trace_id, span_id: root, span_name: 'root', start_time: '2025-07-01T00:00:00Z', end_time: '2025-07-01T00:00:03Z', attributes: { 'ag.metrics.tokens.incremental.total': 1 } }]);
    const got = await eventually(() => fetch(`${t.baseUrl}/spans/${trace_id}/${root}`, { headers: acc.auth }).then((r) => r.json() as Promise<any>), (b) => b.count === 1, 30_000);
    expect(got.span.attributes.ag.metrics.tokens.cumulative.total).toBe(5);
  });

  it('when an undecodable record lands on the spans topic, then it is dead-lettered and later spans still arrive', async () => {
    const producer = await kafka.producer();
    await producer.send(`${t.topicPrefix}tracing.spans.v1`, [{ key: 'poison', value: Buffer.from('definitely not protobuf \u0000\u00ff') }]);
    const dlq = `${t.topicPrefix}tracing.spans.v1.dlq`;
    const seen: string[] = [];
    const consumer = kafka.consumer({ groupId: `test-dlq-${hex(4)}`, topics: [dlq], fromBeginning: true });
    await consumer.start(async (b) => { for (const r of b.records) seen.push(r.value!.toString()); });
    const trace_id = hex(16);
    const span_id = hex(8);
    await ingest([{ trace_id, span_id }]);
    const got = await eventually(() => fetch(`${t.baseUrl}/spans/${trace_id}/${span_id}`, { headers: acc.auth }).then((r) => r.json() as Promise<any>), (b) => b.count === 1);
    expect(got.count).toBe(1);
    await eventually(async () => seen.length, (n) => n > 0, 20_000);
    await consumer.stop();
    await producer.close();
    const dead = JSON.parse(seen[0]!);
    expect(dead.error).toMatch(/undecodable/);
    expect(dead.key).toBe('poison');
    expect(dead.value_base64).toBeTruthy();
  });

  it('when the span model is replayed from the topic, then the rebuilt tables equal the live ones', async () => {
    const trace_id = hex(16);
    await ingest([{ trace_id, span_id: hex(8), span_name: 'gone' }]);
    const del = await fetch(`${t.baseUrl}/traces/${trace_id}`, { method: 'DELETE', headers: acc.auth });
    expect(del.status).toBe(202);
    await eventually(() => fetch(`${t.baseUrl}/traces/${trace_id}`, { headers: acc.auth }).then((r) => r.json() as Promise<any>), (b) => b.count === 0);
    const before = await liveRows();
    const res = await fetch(`${t.baseUrl}/admin/replay/spans`, { method: 'POST', headers: { Authorization: `Access ${t.adminToken}` } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
    const last = lines[lines.length - 1];
    expect(last.error).toBeUndefined();
    expect(last.result.records).toBeGreaterThan(0);
    const after = await liveRows();
    expect(after).toEqual(before);
  });
});
