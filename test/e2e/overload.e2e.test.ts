// Overload is explicit (issue 10): when the pipeline cannot take more, ingest is refused with 503,
// Retry-After and (on OTLP) the google.rpc.Status exporters retry on — never acknowledged into a
// backlog that grows without bound — and whatever was acknowledged becomes visible, nothing else.
// Two signals: bytes waiting for Kafka (a burst larger than INGEST_MAX_PENDING_BYTES), and the span
// projector's lag read from the broker (thresholds set so low here that any lag sheds).
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeRpcStatus, encodeExportTraceServiceRequest, type OtlpSpanInput } from '@llm/otlp';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// One embedded ClickHouse per process: each test stops its stack before the next starts one.
let running: TestApp | undefined;
afterAll(async () => { await running?.stop(); });
async function start(env: Record<string, string>): Promise<TestApp> {
  await running?.stop();
  running = await startTestApp(env);
  return running;
}

/** A request of `traces` traces of 5 spans with ~1 KB of attributes each; answers its trace ids. */
function body(traces: number): { bytes: Uint8Array; traceIds: string[] } {
  const spans: OtlpSpanInput[] = [];
  const traceIds: string[] = [];
  const now = BigInt(Date.now()) * 1_000_000n;
  for (let t = 0; t < traces; t++) {
    const traceId = randomBytes(16);
    traceIds.push(traceId.toString('hex'));
    const root = randomBytes(8);
    for (let i = 0; i < 5; i++) {
      spans.push({
        traceId, spanId: i === 0 ? root : randomBytes(8), ...(i === 0 ? {} : { parentSpanId: root }), name: `span ${i}`, kind: 1,
        startTimeUnixNano: now, endTimeUnixNano: now + 1_000_000n, attributes: { 'gen_ai.input.messages': 'x'.repeat(1000), 'overload.test': 'yes' },
      });
    }
  }
  return { bytes: encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] }), traceIds };
}

async function post(t: TestApp, acc: TestAccount, bytes: Uint8Array): Promise<{ status: number; retryAfter: string | null; body: Buffer }> {
  const r = await fetch(`${t.baseUrl}/otlp/v1/traces`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/x-protobuf' }, body: bytes });
  return { status: r.status, retryAfter: r.headers.get('retry-after'), body: Buffer.from(await r.arrayBuffer()) };
}

/** The trace ids among `ids` that read back with all five spans. */
async function visible(t: TestApp, acc: TestAccount, ids: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += 50) {
    const r = await fetch(`${t.baseUrl}/traces/?trace_ids=${ids.slice(i, i + 50).join(',')}`, { headers: acc.auth });
    const j = await r.json() as { traces?: Array<{ trace_id: string }> };
    for (const tr of j.traces ?? []) out.add(tr.trace_id);
  }
  return out;
}

describe('overload', () => {
  it('given a burst above the bytes allowed to wait for Kafka, then the excess is 503 + Retry-After + Status UNAVAILABLE, and exactly the acknowledged traces become visible', async () => {
    const t = await start({ INGEST_MAX_PENDING_BYTES: String(1024 * 1024), OTLP_WORKERS: '1' });
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const requests = Array.from({ length: 40 }, () => body(40)); // ~200 KB each, 8 MB in all
    const answers = await Promise.all(requests.map((r) => post(t, acc, r.bytes)));
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    for (const r of refused) {
      expect(r.retryAfter).toBe('1');
      expect(decodeRpcStatus(r.body)).toMatchObject({ code: 14, message: expect.stringMatching(/saturated/) });
    }
    const acknowledged = requests.filter((_, i) => answers[i]!.status === 200).flatMap((r) => r.traceIds);
    const dropped = requests.filter((_, i) => answers[i]!.status === 503).flatMap((r) => r.traceIds);
    expect(acknowledged.length).toBeGreaterThan(0);
    await eventually(() => visible(t, acc, acknowledged), (v) => v.size === acknowledged.length, 60_000);
    expect((await visible(t, acc, dropped)).size).toBe(0);
    const metrics = await (await fetch(`${t.managementUrl}/metrics`)).text();
    expect(Number(/^ingest_requests_refused_backlog_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(refused.length);
  });

  it('given the span projector behind (any lag sheds here), when ingesting, then 503 with the lag in Retry-After on OTLP and JSON, and 200 again once it caught up', async () => {
    const t = await start({ INGEST_SHED_LAG_MS: '1', INGEST_MAX_LAG_MS: '2', INGEST_LAG_POLL_MS: '100' });
    const acc = await createAccount(t.baseUrl, t.adminToken);
    // Keep the projector busy until the broker shows it behind and ingest is refused.
    const acknowledged: string[] = [];
    let refusal: { status: number; retryAfter: string | null; body: Buffer } | undefined;
    const deadline = Date.now() + 30_000;
    while (!refusal && Date.now() < deadline) {
      const b = body(40);
      const a = await post(t, acc, b.bytes);
      if (a.status === 200) acknowledged.push(...b.traceIds);
      else refusal = a;
    }
    expect(refusal?.status).toBe(503);
    expect(Number(refusal!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(decodeRpcStatus(refusal!.body)).toMatchObject({ code: 14, message: expect.stringMatching(/behind/) });
    const json = await fetch(`${t.baseUrl}/tracing/spans/ingest`, {
      method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ spans: [{ trace_id: randomBytes(16).toString('hex'), span_id: randomBytes(8).toString('hex'), span_name: 'json', start_time: new Date().toISOString(), end_time: new Date().toISOString() }] }),
    });
    // The projector may already have caught up with this one request's worth; either answer is explicit.
    expect([202, 503]).toContain(json.status);
    if (json.status === 503) expect(json.headers.get('retry-after')).toBeTruthy();
    // Once the projector is through, ingest is admitted again and everything acknowledged is visible.
    await eventually(() => post(t, acc, body(1).bytes).then((a) => a.status), (s) => s === 200, 60_000);
    await eventually(() => visible(t, acc, acknowledged), (v) => v.size === acknowledged.length, 60_000);
  });
});
