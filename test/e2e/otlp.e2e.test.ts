// OTLP/HTTP protobuf through the public API: the official OpenTelemetry JS SDK exporter end to end,
// and every bad-input answer of the OTLP route.
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { encodeExportTraceServiceRequest, decodeRpcStatus, decodeExportTraceServiceResponse, type OtlpSpanInput } from '@llm/otlp';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let acc: TestAccount;
const hex = (n: number): string => randomBytes(n).toString('hex');

beforeAll(async () => {
  t = await startTestApp({ OTLP_MAX_BATCH_BYTES: String(256 * 1024) });
  acc = await createAccount(t.baseUrl, t.adminToken);
});
afterAll(async () => { await t?.stop(); });

async function postOtlp(body: Uint8Array | string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer; type: string | null }> {
  const res = await fetch(`${t.baseUrl}/otlp/v1/traces`, {
    method: 'POST',
    headers: { ...acc.auth, 'Content-Type': 'application/x-protobuf', ...headers },
    body,
  });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

function request(spans: OtlpSpanInput[]): Uint8Array {
  return encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
}

describe('OpenTelemetry SDK exporter', () => {
  it('when the SDK exports a GenAI trace, then it reads back with adapted attributes and a rolled-up parent', async () => {
    const exporter = new OTLPTraceExporter({ url: `${t.baseUrl}/otlp/v1/traces`, headers: acc.auth });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('e2e');
    const parent = tracer.startSpan('agent', { kind: SpanKind.SERVER, attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
    const ctx = trace.setSpan(context.active(), parent);
    const llm = tracer.startSpan('chat gpt-4o', {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.response.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 20,
      },
    }, ctx);
    llm.setStatus({ code: SpanStatusCode.OK });
    llm.end();
    parent.end();
    await provider.forceFlush();
    await provider.shutdown();
    const traceId = parent.spanContext().traceId;

    const got = await eventually(
      () => fetch(`${t.baseUrl}/api/traces/${traceId}`, { headers: acc.auth }).then((r) => r.json() as Promise<any>),
      (b) => b.count === 1 && !!b.trace.spans.agent?.spans,
    );
    const agent = got.trace.spans.agent;
    expect(agent.span_id).toBe(parent.spanContext().spanId);
    expect(agent.span_kind).toBe('SPAN_KIND_SERVER');
    expect(agent.span_type).toBe('agent');
    const chat = agent.spans['chat gpt-4o'];
    expect(chat.span_type).toBe('chat');
    expect(chat.status_code).toBe('STATUS_CODE_OK');
    expect(chat.attributes.ag.meta.request.model).toBe('gpt-4o');
    expect(chat.attributes.ag.metrics.tokens.incremental).toMatchObject({ prompt: 100, completion: 20, total: 120 });
    expect(chat.attributes.ag.metrics.costs.incremental.total).toBeGreaterThan(0);
    expect(agent.attributes.ag.metrics.tokens.cumulative).toMatchObject({ prompt: 100, completion: 20, total: 120 });
    expect(chat.attributes.gen_ai.usage.input_tokens).toBe(100);
  });
});

describe('OTLP bad input', () => {
  it('when some spans are malformed, then 200 with partial_success naming the rejected count', async () => {
    const traceId = hex(16);
    const good = hex(8);
    const body = request([
      { traceId, spanId: good, name: 'good', kind: 1, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000001000000000' },
      { traceId, spanId: hex(8), name: 'bad-kind', kind: 999, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000001000000000' },
      { traceId, spanId: 'abcd', name: 'short-id', kind: 1 },
    ]);
    const r = await postOtlp(body);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/application\/x-protobuf/);
    const resp = decodeExportTraceServiceResponse(r.body);
    expect(resp.partialSuccess?.rejectedSpans).toBe(2);
    expect(resp.partialSuccess?.errorMessage).toBeTruthy();
    const got = await eventually(() => fetch(`${t.baseUrl}/spans/?trace_id=${traceId}`, { headers: acc.auth }).then((x) => x.json() as Promise<any>), (b) => b.count >= 1);
    expect(got.spans.map((s: { span_id: string }) => s.span_id)).toEqual([good]);
  });

  it('when every span is malformed, then 400 with a google.rpc.Status body', async () => {
    const r = await postOtlp(request([{ traceId: hex(16), spanId: hex(8), name: 'x', kind: 42 }]));
    expect(r.status).toBe(400);
    expect(decodeRpcStatus(r.body).message).toMatch(/rejected/);
  });

  it('when the body is garbage, JSON, too large or gzip, then 400, 415, 413 and 200', async () => {
    const garbage = await postOtlp(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]));
    expect(garbage.status).toBe(400);
    expect(decodeRpcStatus(garbage.body).message).toMatch(/not a valid OTLP/);
    const json = await postOtlp(JSON.stringify({ resourceSpans: [] }), { 'Content-Type': 'application/json' });
    expect(json.status).toBe(415);
    const big = await postOtlp(Buffer.alloc(300 * 1024, 1));
    expect(big.status).toBe(413);
    const traceId = hex(16);
    const gz = await postOtlp(gzipSync(request([{ traceId, spanId: hex(8), name: 'zipped', kind: 1, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000500000000' }])), { 'Content-Encoding': 'gzip' });
    expect(gz.status).toBe(200);
  });

  it('when credentials are missing, then the export is 401 but the liveness GET answers ready (auth: none in the spec)', async () => {
    const res = await fetch(`${t.baseUrl}/otlp/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: request([]) });
    expect(res.status).toBe(401);
    for (const path of ['/otlp/v1/traces', '/api/otlp/v1/traces']) {
      const live = await fetch(`${t.baseUrl}${path}`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ready' });
    }
    const withKey = await fetch(`${t.baseUrl}/otlp/v1/traces`, { headers: acc.auth });
    expect(await withKey.json()).toEqual({ status: 'ready' });
  });
});
