// The split deployment end to end: every service a process of its own (command ×2, query ×2, the
// projectors, the dispatcher, the gateway balancing over the replicas), Kafka and Postgres over the
// network, and ClickHouse only through CLICKHOUSE_URL — served by the chDB-over-HTTP fixture.
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startSplitStack, type SplitStack } from '../support/split-stack.ts';
import { exportGenAiTrace, expectGenAiTrace, genAiTraceArrived } from '../support/otel-scenarios.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let s: SplitStack;
let acc: TestAccount;
let ch: ClickHouseClient;

beforeAll(async () => {
  s = await startSplitStack();
  // Account creation goes through the gateway to a command replica; the key works once projected.
  acc = await createAccount(s.baseUrl, s.adminToken);
  ch = createClient({ url: s.clickhouseUrl });
}, 240_000);
afterAll(async () => {
  await ch?.close();
  await s?.stop();
}, 60_000);

const getJson = (url: string): Promise<any> => fetch(url, { headers: acc.auth }).then((r) => r.json());

async function ingest(spans: unknown[]): Promise<void> {
  const r = await fetch(`${s.baseUrl}/api/tracing/spans/ingest`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ spans }) });
  expect(r.status).toBe(202);
}

/** The project's live span rows, read from the fixture the way an operator would read ClickHouse. */
async function liveRows(): Promise<{ n: number; digest: string }> {
  const r = await ch.query({
    query: `SELECT count() AS n, toString(groupBitXor(cityHash64(trace_id, span_id, attributes, tokens_cumulative, costs_cumulative, version))) AS digest
            FROM ${s.clickhouseDatabase}.spans FINAL WHERE project_id = {p:String} AND is_deleted = 0`,
    query_params: { p: acc.projectId }, format: 'JSONEachRow',
  });
  const [row] = await r.json<{ n: string; digest: string }>();
  return { n: Number(row!.n), digest: row!.digest };
}

describe('split deployment', () => {
  it('when the stack runs, then two replicas serve each of the command and query sides and no service opened the embedded engine', () => {
    expect(s.urls('command')).toHaveLength(2);
    expect(s.urls('query')).toHaveLength(2);
    expect(s.services.every((svc) => svc.process.alive())).toBe(true);
    expect(existsSync(s.embeddedDataDir)).toBe(false);
  });

  it('when the OpenTelemetry SDK exports through the gateway, then the trace reads back through the gateway and from either query replica', async () => {
    const exported = await exportGenAiTrace(s.baseUrl, acc.auth);
    const got = await eventually(() => getJson(`${s.baseUrl}/api/traces/${exported.traceId}`), genAiTraceArrived, 60_000);
    expectGenAiTrace(got, exported);
    for (const replica of s.urls('query')) {
      const direct = await eventually(() => getJson(`${replica}/api/traces/${exported.traceId}`), genAiTraceArrived, 30_000);
      expectGenAiTrace(direct, exported);
    }
  });

  it('when the span model is replayed through the gateway, then the rebuilt tables hold the same rows and the reads answer the same', async () => {
    const trace_id = hex(16);
    const root = hex(8);
    await ingest([
      { trace_id, span_id: root, span_name: 'root', attributes: { 'ag.metrics.tokens.incremental.total': 1 } },
      ...Array.from({ length: 3 }, () => ({ trace_id, span_id: hex(8), parent_id: root, span_name: 'child', attributes: { 'ag.metrics.tokens.incremental.total': 2 } })),
    ]);
    const gone = hex(16);
    await ingest([{ trace_id: gone, span_id: hex(8), span_name: 'gone' }]);
    // Deleted only once stored: a trace deleted before its spans are projected reads as gone at once,
    // and the live rows could be counted between the span's row and its tombstone.
    await eventually(() => getJson(`${s.baseUrl}/api/traces/${gone}`), (b) => b.count === 1, 30_000);
    expect((await fetch(`${s.baseUrl}/api/traces/${gone}`, { method: 'DELETE', headers: acc.auth })).status).toBe(202);
    await eventually(() => getJson(`${s.baseUrl}/api/traces/${gone}`), (b) => b.count === 0, 30_000);
    const spanBefore = await eventually(() => getJson(`${s.baseUrl}/api/spans/${trace_id}/${root}`),
      (b) => b.count === 1 && b.span.attributes.ag.metrics.tokens.cumulative.total === 7, 30_000);
    const before = await liveRows();
    expect(before.n).toBeGreaterThanOrEqual(6);

    const res = await fetch(`${s.baseUrl}/api/admin/replay/spans`, { method: 'POST', headers: { Authorization: `Access ${s.adminToken}` } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
    const last = lines[lines.length - 1];
    expect(last.error).toBeUndefined();
    expect(last.result.records).toBeGreaterThan(0);

    expect(await liveRows()).toEqual(before);
    for (const base of [s.baseUrl, ...s.urls('query')]) {
      expect(await getJson(`${base}/api/spans/${trace_id}/${root}`)).toEqual(spanBefore);
      expect((await getJson(`${base}/api/traces/${gone}`)).count).toBe(0);
    }
  });

  it('when one query replica stops, then the gateway serves every read from the other', async () => {
    const trace_id = hex(16);
    const span_id = hex(8);
    await ingest([{ trace_id, span_id }]);
    await eventually(() => getJson(`${s.baseUrl}/api/spans/${trace_id}/${span_id}`), (b) => b.count === 1, 30_000);
    const first = s.services.find((svc) => svc.name === 'query')!;
    await first.process.stop();
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`${s.baseUrl}/api/spans/${trace_id}/${span_id}`, { headers: acc.auth });
      expect(r.status).toBe(200);
      expect(((await r.json()) as any).span.span_id).toBe(span_id);
    }
  });
});
