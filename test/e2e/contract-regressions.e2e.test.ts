// Server bugs the contract fuzzing run (`npm run test:contract`, schemathesis against the OpenAPI
// document) found, each pinned here against the real stack so it stays fixed without the fuzzer.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeExportTraceServiceRequest } from '@llm/otlp';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let acc: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  acc = await createAccount(t.baseUrl, t.adminToken);
}, 120_000);
afterAll(async () => { await t?.stop(); });

describe('a span far in the future (after 2^53 µs, the year 2255)', () => {
  it('when a project holds one, then reading its trace and searching traces answer 200 with it, not 503', async () => {
    // The fuzzer's span: 2^63 − 2^40 ns, in April 2262 — OTLP accepts it and DateTime64(6) stores it,
    // but its microseconds are beyond 2^53, which the trace index lookup used to send as an unsafe
    // integer: every trace read and search of the project answered 503 from then on.
    const traceId = randomBytes(16);
    const start = 2n ** 63n - 2n ** 40n;
    const body = encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans: [
      { traceId, spanId: randomBytes(8), name: 'far future', kind: 1, startTimeUnixNano: start, endTimeUnixNano: start + 1_000n },
    ] }] }] });
    const ingest = await fetch(`${t.baseUrl}/otlp/v1/traces`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/x-protobuf' }, body });
    expect(ingest.status).toBe(200);
    const id = traceId.toString('hex');

    const read = await eventually(async () => {
      const r = await fetch(`${t.baseUrl}/traces/?trace_ids=${id}`, { headers: acc.auth });
      return { status: r.status, body: await r.text() };
    }, (r) => r.status !== 200 || r.body.includes(id), 60_000);
    expect(read.status).toBe(200);
    expect(read.body).toContain(id);

    const search = await fetch(`${t.baseUrl}/traces/query`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: '{}' });
    expect(search.status).toBe(200);
    const spans = await fetch(`${t.baseUrl}/tracing/spans/query`, { method: 'POST', headers: acc.auth });
    expect(spans.status).toBe(200);
  }, 120_000);
});
