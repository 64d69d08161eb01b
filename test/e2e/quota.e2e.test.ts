// Quotas bite before acknowledgement (reference accounts §2.3, without its silent drop): a hobby
// organization ingesting past its monthly 5,000 traces gets the spec's answers on both ingest paths
// (OTLP 403 with a protobuf Status, JSON 429), nothing refused is appended, nothing accepted is
// lost (the exact meter, a projection of the log, counts exactly what was acknowledged), and
// concurrent clients never take more than the limit allows. A trace is a trace id the organization
// did not have before, root span or not: spans naming a made-up parent no longer escape the limit.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '@llm/access';
import { decodeRpcStatus, encodeExportTraceServiceRequest, type OtlpSpanInput } from '@llm/otlp';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import pg from 'pg';
import { topicsFor } from '@llm/events';
import { createKafkaClient } from '@llm/kafka';
import { createLogger } from '@llm/logging';
import { migratePostgres, openPostgres } from '@llm/postgres';
import { ACCOUNTS_MIGRATIONS } from '@llm/service-projector-accounts';
import { createUsageProjector } from '@llm/service-projector-usage';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
const hex = (n: number): string => randomBytes(n).toString('hex');
const PLANS = {
  ...DEFAULT_PLANS,
  quota_test_strict: { counters: { traces_ingested: { limit: 250, strict: true, period: 'monthly' } } },
  quota_test_loose: { counters: { traces_ingested: { limit: 100, strict: false, period: 'monthly' } } },
  quota_test_rootless: { counters: { traces_ingested: { limit: 5, strict: true, period: 'monthly' } } },
};

beforeAll(async () => {
  t = await startTestApp({ ACCESS_PLANS: JSON.stringify(PLANS), ACCESS_DEFAULT_PLAN: 'cloud_v0_hobby', QUOTA_REFUSAL_CACHE_MS: '1000' });
});
afterAll(async () => { await t?.stop(); });

const nowNs = () => BigInt(Date.now()) * 1_000_000n;
/** `traces` traces of one root span each, plus `children` child spans under the first. */
function otlpBody(traces: number, children = 0): { body: Uint8Array; traceIds: string[] } {
  const spans: OtlpSpanInput[] = [];
  const traceIds: string[] = [];
  for (let i = 0; i < traces; i++) {
    const traceId = hex(16);
    traceIds.push(traceId);
    spans.push({ traceId, spanId: hex(8), name: 'root', startTimeUnixNano: nowNs(), endTimeUnixNano: nowNs() + 1000n });
  }
  for (let i = 0; i < children; i++) spans.push({ traceId: traceIds[0] ?? hex(16), spanId: hex(8), parentSpanId: hex(8), name: 'child', startTimeUnixNano: nowNs(), endTimeUnixNano: nowNs() + 1000n });
  return { body: encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] }), traceIds };
}

async function postOtlp(acc: TestAccount, body: Uint8Array) {
  const res = await fetch(`${t.baseUrl}/otlp/v1/traces`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/x-protobuf' }, body });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

async function postSpans(acc: TestAccount, spans: Array<{ trace_id: string; span_id: string; span_name: string; parent_id?: string }>) {
  const res = await fetch(`${t.baseUrl}/tracing/spans/ingest`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ spans }) });
  return { status: res.status, body: await res.json() as unknown, traceIds: spans.map((s) => s.trace_id) };
}

/** `traces` new traces of one span each; `parent`: every span names a made-up parent (no root in the request). */
async function postJson(acc: TestAccount, traces: number, parent = false) {
  return postSpans(acc, Array.from({ length: traces }, () => ({ trace_id: hex(16), span_id: hex(8), span_name: 'json', ...(parent ? { parent_id: hex(8) } : {}) })));
}

/** One span under a made-up parent in each of `traceIds` (new or existing traces), as OTLP. */
const rootlessOtlp = (traceIds: string[]): Uint8Array => encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{
  spans: traceIds.map((traceId) => ({ traceId, spanId: hex(8), parentSpanId: hex(8), name: 'orphan', startTimeUnixNano: nowNs(), endTimeUnixNano: nowNs() + 1000n })),
}] }] });

const usage = async (acc: TestAccount): Promise<number> => {
  const r = await fetch(`${t.baseUrl}/billing/usage`, { headers: acc.auth });
  expect(r.status).toBe(200);
  return ((await r.json()) as { traces_ingested: { value: number } }).traces_ingested.value;
};
const settled = async (acc: TestAccount, value: number): Promise<void> => {
  await eventually(() => usage(acc), (v) => v === value, 30_000);
};
const traceVisible = async (acc: TestAccount, traceId: string): Promise<boolean> => {
  const r = await fetch(`${t.baseUrl}/traces/${traceId}`, { headers: acc.auth });
  return r.status === 200 && ((await r.json()) as { count: number }).count > 0;
};

describe('quota admission before acknowledgement', () => {
  it('given a hobby organization, when it ingests past 5,000 traces, then OTLP answers 403 and JSON 429, and the meter shows exactly what was accepted', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const plan = await (await fetch(`${t.baseUrl}/billing/usage`, { headers: acc.auth })).json() as Record<string, { limit: number | null; strict: boolean; period: string }>;
    expect(plan.traces_ingested).toMatchObject({ value: 0, limit: 5000, free: 5000, strict: false, period: 'monthly', scope: 'organization' });
    expect(plan.users).toMatchObject({ value: 1, limit: 2, strict: true });

    const accepted: string[] = [];
    for (let i = 0; i < 9; i++) {
      const b = otlpBody(500);
      expect((await postOtlp(acc, b.body)).status).toBe(200);
      accepted.push(...b.traceIds);
    }
    await settled(acc, 4500);
    const json = await postJson(acc, 400);
    expect(json.status).toBe(202);
    accepted.push(...json.traceIds);
    // Below the line, a request may cross it once (non-strict): 4,900 + 500.
    const crossing = otlpBody(500, 3);
    expect((await postOtlp(acc, crossing.body)).status).toBe(200);
    accepted.push(...crossing.traceIds);
    await settled(acc, 5400);

    const refusedOtlp = otlpBody(1);
    const r = await postOtlp(acc, refusedOtlp.body);
    expect(r.status).toBe(403);
    expect(r.type).toContain('application/x-protobuf');
    expect(decodeRpcStatus(new Uint8Array(r.body)).message).toBe('You have reached your monthly quota limit. Please upgrade your plan to continue.');
    const refusedJson = await postJson(acc, 2);
    expect(refusedJson.status).toBe(429);
    expect(refusedJson.body).toEqual({ detail: 'You have reached your monthly quota limit.' });
    // Spans of traces it already has bring no trace: nothing to meter, so they are not refused.
    expect((await postSpans(acc, accepted.slice(0, 3).map((trace_id) => ({ trace_id, span_id: hex(8), parent_id: hex(8), span_name: 'late' })))).status).toBe(202);

    // Nothing refused was appended: the meter (a projection of the log) still counts 5,400, and the
    // refused traces never appear, while every accepted one we sample does.
    await new Promise((res) => setTimeout(res, 1500));
    expect(await usage(acc)).toBe(5400);
    for (const id of [accepted[0]!, accepted[4499]!, accepted[4500]!, accepted[4899]!, accepted[5399]!]) {
      await eventually(() => traceVisible(acc, id), (v) => v);
    }
    for (const id of [...refusedOtlp.traceIds, ...refusedJson.traceIds]) expect(await traceVisible(acc, id)).toBe(false);
  });

  it('given a strict limit of 250, when 20 clients send 5 requests of 10 traces each at once, then exactly 25 are accepted and the rest get 429', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'quota_test_strict' });
    const statuses = await Promise.all(Array.from({ length: 20 }, async () => {
      const out: number[] = [];
      for (let i = 0; i < 5; i++) out.push((await postJson(acc, 10)).status);
      return out;
    }));
    const flat = statuses.flat();
    expect(flat.filter((s) => s === 202)).toHaveLength(25);
    expect(flat.filter((s) => s === 429)).toHaveLength(75);
    await settled(acc, 250);
  });

  it('given a non-strict limit of 100, when 30 concurrent OTLP requests of 7 traces arrive, then the overshoot is less than one request (105 accepted)', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'quota_test_loose' });
    const results = await Promise.all(Array.from({ length: 30 }, () => postOtlp(acc, otlpBody(7).body)));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(15); // 14 × 7 = 98 < 100 admits the 15th; 105 ≥ 100 refuses the rest
    expect(results.filter((r) => r.status === 403)).toHaveLength(15);
    await settled(acc, 105);
  });

  it('given an organization at its limit, when every span of new traces names a made-up parent, then every ingest route refuses them, while the meter counted such traces below the limit and spans of its traces still pass', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'quota_test_rootless' });
    // Below the limit, rootless new traces are new traces: 3 over JSON, 2 over OTLP.
    const json = await postJson(acc, 3, true);
    expect(json.status).toBe(202);
    const otlpIds = [hex(16), hex(16)];
    expect((await postOtlp(acc, rootlessOtlp(otlpIds))).status).toBe(200);
    await settled(acc, 5);

    // At 5/5: any request that would add a trace is refused, root span or not, on every ingest route.
    const refusedJson = await postJson(acc, 1, true);
    expect(refusedJson.status).toBe(429);
    expect(refusedJson.body).toEqual({ detail: 'You have reached your monthly quota limit.' });
    // A request mixing a span of an existing trace with a new trace is refused whole.
    const mixed = await postSpans(acc, [{ trace_id: json.traceIds[0]!, span_id: hex(8), parent_id: hex(8), span_name: 'x' }, { trace_id: hex(16), span_id: hex(8), parent_id: hex(8), span_name: 'y' }]);
    expect(mixed.status).toBe(429);
    const refusedOtlpIds = [hex(16)];
    const r = await postOtlp(acc, rootlessOtlp(refusedOtlpIds));
    expect(r.status).toBe(403);
    expect(decodeRpcStatus(new Uint8Array(r.body)).message).toBe('You have reached your monthly quota limit. Please upgrade your plan to continue.');
    const canonicalId = hex(16);
    const canonical = await fetch(`${t.baseUrl}/traces/ingest`, {
      method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ traces: [{ trace_id: canonicalId, spans: { orphan: { trace_id: canonicalId, span_id: hex(8), parent_id: hex(8), span_name: 'orphan' } } }] }),
    });
    expect({ status: canonical.status, body: await canonical.json() as unknown }).toEqual({ status: 429, body: { detail: 'You have reached your monthly quota limit.' } });
    const replacedId = hex(16);
    const replaced = await fetch(`${t.baseUrl}/traces/${replacedId}`, {
      method: 'PUT', headers: { ...acc.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ trace: { trace_id: replacedId, spans: { root: { trace_id: replacedId, span_id: hex(8), span_name: 'root' } } } }),
    });
    expect({ status: replaced.status, body: await replaced.json() as unknown }).toEqual({ status: 429, body: { detail: 'You have reached your monthly quota limit.' } });

    // Spans of the traces it has still go through, on both paths.
    expect((await postSpans(acc, json.traceIds.map((trace_id) => ({ trace_id, span_id: hex(8), parent_id: hex(8), span_name: 'more' })))).status).toBe(202);
    expect((await postOtlp(acc, rootlessOtlp(otlpIds))).status).toBe(200);

    // The meter did not move, and nothing refused was stored.
    await new Promise((res) => setTimeout(res, 1500));
    expect(await usage(acc)).toBe(5);
    await eventually(() => traceVisible(acc, otlpIds[0]!), (v) => v);
    for (const id of [...refusedJson.traceIds, mixed.traceIds[1]!, ...refusedOtlpIds, canonicalId, replacedId]) expect(await traceVisible(acc, id)).toBe(false);
  });

  it('when the spans topic is replayed into an empty database, then the meters are the same', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    for (let i = 0; i < 3; i++) expect((await postOtlp(acc, otlpBody(40, 5).body)).status).toBe(200);
    expect((await postJson(acc, 7)).status).toBe(202);
    await settled(acc, 127);
    const live = openPostgres(t.databaseUrl);
    const meters = async (pool: pg.Pool) => (await pool.query(
      'SELECT organization_id::text AS o, project_id::text AS p, user_id AS u, meter, day::text AS day, value::text AS v FROM usage_daily ORDER BY o, p, u, meter, day')).rows;
    // A fresh database with the accounts tables the meters need (projects, offsets), and a fresh consumer group.
    const id = hex(4);
    const server = new pg.Client({ connectionString: t.databaseUrl });
    await server.connect();
    await server.query(`CREATE DATABASE u_${id}`);
    await server.end();
    const rebuilt = openPostgres(t.databaseUrl.replace(/\/[^/]*$/, `/u_${id}`));
    await migratePostgres(rebuilt, ACCOUNTS_MIGRATIONS);
    const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'usage-replay' });
    const producer = await kafka.producer();
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const projector = createUsageProjector({ kafka, producer, pool: rebuilt, topics, log: createLogger({ name: 'usage-replay', level: 'silent' }), consumerName: `usage-replay-${id}` });
    try {
      await projector.start();
      // Both sides settle (the live read events' meters may still be landing): compared as pairs.
      const [expected, got] = await eventually(async () => [await meters(live), await meters(rebuilt)] as const, ([a, b]) => JSON.stringify(a) === JSON.stringify(b), 30_000);
      expect(got).toEqual(expected);
      expect(expected.some((r) => r.meter === 'events_ingested')).toBe(true);
    } finally {
      await projector.stop();
      await producer.close();
      await rebuilt.end();
      await live.end();
    }
  });

  it('given an unknown plan in the admin request, then 400 and no account', async () => {
    const res = await fetch(`${t.baseUrl}/admin/simple/accounts/`, {
      method: 'POST', headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ accounts: { u: { user: { email: `${hex(6)}@test.example.com` }, subscription: { plan: 'no_such_plan' } } } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ detail: { message: "Unknown plan 'no_such_plan'.", plan: 'no_such_plan' } });
  });
});
