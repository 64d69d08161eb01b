// OTLP on the standard ports (issue 29): the OpenTelemetry JS exporters nobody here wrote — OTLP/HTTP
// with its default JSON encoding, OTLP/gRPC with gzip — write traces that read back through the API
// with their attributes; every answer of the two receivers in its transport's terms; and the
// admission they share with /otlp/v1/traces (one throttle bucket across the three, the quota). Then
// other clients: the Python SDK, telemetrygen, and an OpenTelemetry Collector forwarding to us.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter as HttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { DEFAULT_PLANS } from '@llm/access';
import { decodeExportTraceServiceResponse, decodeRpcStatus, encodeExportTraceServiceRequest, type OtlpSpanInput } from '@llm/otlp';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const PLANS = {
  ...DEFAULT_PLANS,
  // Three exports a minute, whichever port they come in on.
  otlp_test_throttle: { throttles: [{ bucket: { capacity: 3, rate: 1 }, mode: 'include' as const, categories: ['tracing_fast' as const] }] },
  otlp_test_quota: { counters: { traces_ingested: { limit: 1, strict: true, period: 'monthly' as const } } },
};
const MAX_BATCH = 256 * 1024;
const execFileAsync = promisify(execFile);

let t: TestApp;
let acc: TestAccount;
let httpUrl: string;
let grpcAddress: string;
const hex = (n: number): string => randomBytes(n).toString('hex');
const nowNs = (): string => (BigInt(Date.now()) * 1_000_000n).toString();

beforeAll(async () => {
  t = await startTestApp({ OTLP_MAX_BATCH_BYTES: String(MAX_BATCH), ACCESS_PLANS: JSON.stringify(PLANS), ACCESS_DEFAULT_PLAN: 'cloud_v0_hobby' });
  acc = await createAccount(t.baseUrl, t.adminToken);
  httpUrl = `http://127.0.0.1:${t.app.otlpHttpPort!}`;
  grpcAddress = `127.0.0.1:${t.app.otlpGrpcPort!}`;
});
afterAll(async () => { await t?.stop(); });

/** Writes one parent/child GenAI trace through `exporter`; returns its trace and span ids. */
async function exportTrace(exporter: SpanExporter, label: string): Promise<{ traceId: string; parentId: string }> {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('otlp-receivers-e2e');
  const parent = tracer.startSpan(`agent ${label}`, { kind: SpanKind.SERVER, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'app.label': label, 'app.count': 7, 'app.flags': [true, false] } });
  const llm = tracer.startSpan('chat gpt-4o', {
    kind: SpanKind.CLIENT,
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 20, 'app.ratio': 0.25 },
  }, trace.setSpan(context.active(), parent));
  llm.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream said no' });
  llm.end();
  parent.end();
  await provider.forceFlush();
  await provider.shutdown();
  return { traceId: parent.spanContext().traceId, parentId: parent.spanContext().spanId };
}

/** GET /traces/{id} once the trace's two spans are projected. */
async function readBack(traceId: string, label: string): Promise<any> {
  const got = await eventually(
    () => fetch(`${t.baseUrl}/api/traces/${traceId}`, { headers: acc.auth }).then((r) => r.json() as Promise<any>),
    (b) => b.count === 1 && !!b.trace.spans[`agent ${label}`]?.spans?.['chat gpt-4o'],
  );
  return got.trace.spans[`agent ${label}`];
}

function expectTrace(agent: any, parentId: string, label: string): void {
  expect(agent.span_id).toBe(parentId);
  expect(agent.span_kind).toBe('SPAN_KIND_SERVER');
  expect(agent.attributes.app).toEqual({ label, count: 7, flags: [true, false] });
  const chat = agent.spans['chat gpt-4o'];
  expect(chat.span_kind).toBe('SPAN_KIND_CLIENT');
  expect(chat.status_code).toBe('STATUS_CODE_ERROR');
  expect(chat.status_message).toBe('upstream said no');
  expect(chat.attributes.app.ratio).toBe(0.25);
  expect(chat.attributes.ag.meta.request.model).toBe('gpt-4o');
  expect(chat.attributes.ag.metrics.tokens.incremental).toMatchObject({ prompt: 100, completion: 20, total: 120 });
}

// Configured as users configure them: the standard OTEL_EXPORTER_OTLP_* variables, nothing else.
describe('OpenTelemetry JS exporters on the standard ports', () => {
  afterEach(() => { vi.unstubAllEnvs(); });

  it('when the OTLP/HTTP exporter sends its default JSON to the OTLP port, then the trace reads back with its attributes', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', httpUrl);
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', `Authorization=${encodeURIComponent(acc.auth.Authorization)}`);
    const { traceId, parentId } = await exportTrace(new HttpJsonExporter(), 'http-json');
    expectTrace(await readBack(traceId, 'http-json'), parentId, 'http-json');
  });

  it('when the OTLP/gRPC exporter sends gzip with the key in its metadata, then the trace reads back with its attributes', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', `http://${grpcAddress}`);
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', `authorization=${encodeURIComponent(acc.auth.Authorization)}`);
    vi.stubEnv('OTEL_EXPORTER_OTLP_COMPRESSION', 'gzip');
    const { traceId, parentId } = await exportTrace(new GrpcExporter(), 'grpc');
    expectTrace(await readBack(traceId, 'grpc'), parentId, 'grpc');
  });
});

function otlpRequest(spans: OtlpSpanInput[]): Uint8Array {
  return encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
}
const goodSpan = (traceId = hex(16)): OtlpSpanInput => ({ traceId, spanId: hex(8), name: 'ok', kind: 1, startTimeUnixNano: nowNs(), endTimeUnixNano: nowNs() });
const jsonSpan = (traceId = hex(16), extra: Record<string, unknown> = {}) => ({ traceId, spanId: hex(8), name: 'json', kind: 'SPAN_KIND_INTERNAL', startTimeUnixNano: nowNs(), endTimeUnixNano: nowNs(), ...extra });
const jsonRequest = (spans: unknown[]): string => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });

async function post(url: string, body: Uint8Array | string, headers: Record<string, string>, account: TestAccount | null = acc) {
  const res = await fetch(url, { method: 'POST', headers: { ...account?.auth, ...headers }, body });
  return { status: res.status, type: res.headers.get('content-type'), retryAfter: res.headers.get('retry-after'), body: Buffer.from(await res.arrayBuffer()) };
}
const JSON_TYPE = { 'Content-Type': 'application/json' };
const PROTOBUF_TYPE = { 'Content-Type': 'application/x-protobuf' };

describe('OTLP/HTTP on the OTLP port', () => {
  it('when JSON spans come gzip, some malformed, then 200 with a JSON partialSuccess and the good span is stored', async () => {
    const traceId = hex(16);
    const good = jsonSpan(traceId);
    const r = await post(`${httpUrl}/v1/traces`, gzipSync(jsonRequest([good, jsonSpan(traceId, { spanId: 'abcd' }), jsonSpan(traceId, { kind: 'SPAN_KIND_NOPE' })])), { ...JSON_TYPE, 'Content-Encoding': 'gzip' });
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    const answer = JSON.parse(r.body.toString()) as { partialSuccess: { rejectedSpans: string; errorMessage: string } };
    expect(answer.partialSuccess.rejectedSpans).toBe('2');
    expect(answer.partialSuccess.errorMessage).toMatch(/span 1: invalid span_id length 2; span 2: invalid kind 'SPAN_KIND_NOPE'/);
    const got = await eventually(() => fetch(`${t.baseUrl}/spans/?trace_id=${traceId}`, { headers: acc.auth }).then((x) => x.json() as Promise<any>), (b) => b.count >= 1);
    expect(got.spans.map((s: { span_id: string }) => s.span_id)).toEqual([good.spanId]);
  });

  it('when protobuf comes to the OTLP port, then it is taken as on /otlp/v1/traces and answered in protobuf', async () => {
    const r = await post(`${httpUrl}/v1/traces`, gzipSync(otlpRequest([goodSpan()])), { ...PROTOBUF_TYPE, 'Content-Encoding': 'gzip' });
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/x-protobuf/);
    expect(decodeExportTraceServiceResponse(r.body)).toEqual({});
  });

  it('when a JSON export is refused, then the google.rpc.Status comes as JSON with the OTLP status: 400, 401, 413, and 415 for other media types', async () => {
    const status = (r: { body: Buffer }) => JSON.parse(r.body.toString()) as { code: number; message: string };
    const notJson = await post(`${httpUrl}/v1/traces`, '{"resourceSpans": [', JSON_TYPE);
    expect(notJson.status).toBe(400);
    expect(notJson.type).toMatch(/^application\/json/);
    expect(status(notJson)).toMatchObject({ code: 3, message: expect.stringMatching(/not a valid OTLP\/JSON ExportTraceServiceRequest \(body is not JSON/) as string });
    const allBad = await post(`${httpUrl}/v1/traces`, jsonRequest([jsonSpan(hex(16), { traceId: '00' })]), JSON_TYPE);
    expect(allBad.status).toBe(400);
    expect(status(allBad).message).toMatch(/All 1 spans were rejected/);
    const noKey = await post(`${httpUrl}/v1/traces`, jsonRequest([]), JSON_TYPE, null);
    expect(noKey.status).toBe(401);
    expect(status(noKey)).toEqual({ code: 16, message: 'Unauthorized' });
    const tooBig = await post(`${httpUrl}/v1/traces`, jsonRequest([jsonSpan(hex(16), { name: 'x'.repeat(MAX_BATCH) })]), JSON_TYPE);
    expect(tooBig.status).toBe(413);
    expect(status(tooBig).message).toMatch(/exceeds/);
    const text = await post(`${httpUrl}/v1/traces`, 'hello', { 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(decodeRpcStatus(text.body).message).toMatch(/application\/x-protobuf or application\/json/);
  });

  it('when JSON goes to the API\'s /otlp/v1/traces, then it is still 415 there (the spec), and the OTLP port has the liveness GET and a Status 404 elsewhere', async () => {
    const spec = await post(`${t.baseUrl}/otlp/v1/traces`, jsonRequest([jsonSpan()]), JSON_TYPE);
    expect(spec.status).toBe(415);
    expect(decodeRpcStatus(spec.body).message).toMatch(/OTLP\/JSON is not supported/);
    const live = await fetch(`${httpUrl}/v1/traces`);
    expect(await live.json()).toEqual({ status: 'ready' });
    const elsewhere = await post(`${httpUrl}/v1/metrics`, '{}', JSON_TYPE);
    expect(elsewhere.status).toBe(404);
    expect(JSON.parse(elsewhere.body.toString())).toMatchObject({ code: 5 });
  });
});

// A raw gRPC client (grpc-js), to see each status code, its message and its trailers.
const EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const errorDetails = protobuf.Root.fromJSON({
  nested: {
    Status: { fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 }, details: { rule: 'repeated', type: 'Any', id: 3 } } },
    Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } },
    RetryInfo: { fields: { retryDelay: { type: 'Duration', id: 1 } } },
    Duration: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
  },
});
type GrpcAnswer = { ok: Buffer } | { code: number; details: string; retryDelaySeconds: number | undefined };

function grpcExport(body: Uint8Array, account: TestAccount | null = acc): Promise<GrpcAnswer> {
  const client = new Client(grpcAddress, credentials.createInsecure());
  const metadata = new Metadata();
  if (account) metadata.set('authorization', account.auth.Authorization);
  return new Promise<GrpcAnswer>((resolve) => {
    client.makeUnaryRequest(EXPORT, (b: Buffer) => b, (b: Buffer) => b, Buffer.from(body), metadata, (err: ServiceError | null, value?: Buffer) => {
      client.close();
      if (!err) { resolve({ ok: value! }); return; }
      const [bin] = err.metadata.get('grpc-status-details-bin');
      let retryDelaySeconds: number | undefined;
      if (bin instanceof Buffer) {
        const status = errorDetails.lookupType('Status').toObject(errorDetails.lookupType('Status').decode(bin)) as { details: Array<{ type_url: string; value: Uint8Array }> };
        const info = status.details.find((d) => d.type_url === 'type.googleapis.com/google.rpc.RetryInfo');
        if (info) retryDelaySeconds = Number((errorDetails.lookupType('RetryInfo').toObject(errorDetails.lookupType('RetryInfo').decode(info.value), { longs: Number }) as { retryDelay: { seconds: number } }).retryDelay.seconds);
      }
      resolve({ code: err.code, details: err.details, retryDelaySeconds });
    });
  });
}

describe('OTLP/gRPC', () => {
  it('when spans are partly malformed, then OK with partial_success; garbage is INVALID_ARGUMENT; no key UNAUTHENTICATED; too big RESOURCE_EXHAUSTED', async () => {
    const partial = await grpcExport(otlpRequest([goodSpan(), { ...goodSpan(), kind: 42 }]));
    expect('ok' in partial && decodeExportTraceServiceResponse(partial.ok)).toEqual({ partialSuccess: { rejectedSpans: 1, errorMessage: 'span 1: invalid kind 42' } });
    expect(await grpcExport(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]))).toMatchObject({ code: 3, details: expect.stringMatching(/not a valid OTLP ExportTraceServiceRequest/) as string, retryDelaySeconds: undefined });
    expect(await grpcExport(otlpRequest([goodSpan()]), null)).toMatchObject({ code: 16, details: 'Unauthorized' });
    expect(await grpcExport(otlpRequest([{ ...goodSpan(), name: 'x'.repeat(MAX_BATCH) }]))).toMatchObject({ code: 8, retryDelaySeconds: undefined });
  });
});

describe('admission shared with /otlp/v1/traces', () => {
  it('given a throttle of 3 exports a minute, then the API path, the OTLP port and gRPC draw on one bucket: the 4th is RESOURCE_EXHAUSTED with RetryInfo, the 5th a JSON 429 with Retry-After', async () => {
    const org = await createAccount(t.baseUrl, t.adminToken, { plan: 'otlp_test_throttle' });
    expect((await post(`${t.baseUrl}/otlp/v1/traces`, otlpRequest([goodSpan()]), PROTOBUF_TYPE, org)).status).toBe(200);
    expect((await post(`${httpUrl}/v1/traces`, jsonRequest([jsonSpan()]), JSON_TYPE, org)).status).toBe(200);
    expect(await grpcExport(otlpRequest([goodSpan()]), org)).toHaveProperty('ok');
    const fourth = await grpcExport(otlpRequest([goodSpan()]), org);
    expect(fourth).toMatchObject({ code: 8, details: expect.stringMatching(/^Rate limit exceeded/) as string });
    expect((fourth as { retryDelaySeconds?: number }).retryDelaySeconds).toBeGreaterThan(0);
    const fifth = await post(`${httpUrl}/v1/traces`, jsonRequest([jsonSpan()]), JSON_TYPE, org);
    expect(fifth.status).toBe(429);
    expect(Number(fifth.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(fifth.body.toString())).toMatchObject({ code: 8, message: expect.stringMatching(/^Rate limit exceeded/) as string });
  });

  it('given a quota of 1 trace, then a new trace over it is RESOURCE_EXHAUSTED without RetryInfo on gRPC and a JSON 403 on the OTLP port', async () => {
    const org = await createAccount(t.baseUrl, t.adminToken, { plan: 'otlp_test_quota' });
    expect(await grpcExport(otlpRequest([goodSpan()]), org)).toHaveProperty('ok');
    expect(await grpcExport(otlpRequest([goodSpan()]), org)).toEqual({ code: 8, details: 'You have reached your monthly quota limit. Please upgrade your plan to continue.', retryDelaySeconds: undefined });
    const http = await post(`${httpUrl}/v1/traces`, jsonRequest([jsonSpan()]), JSON_TYPE, org);
    expect(http.status).toBe(403);
    expect(JSON.parse(http.body.toString())).toEqual({ code: 7, message: 'You have reached your monthly quota limit. Please upgrade your plan to continue.' });
  });
});

// The OpenTelemetry Python SDK's OTLP/gRPC exporter (grpcio), from the pinned venv `npm test`
// installs once (deploy/local/otel-python.mjs), configured by the standard variables only.
describe('the OpenTelemetry Python SDK', () => {
  it('when its OTLP/gRPC exporter sends gzip with the key in OTEL_EXPORTER_OTLP_HEADERS, then the trace reads back with its attributes', async () => {
    const { ensureOtelPythonGrpc } = await import('../../deploy/local/otel-python.mjs');
    const python = ensureOtelPythonGrpc({ log: () => {} });
    const { stdout } = await execFileAsync(python, [path.join(import.meta.dirname, 'otlp-python', 'export_grpc.py'), 'python-grpc'], {
      timeout: 60_000,
      env: {
        ...process.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://${grpcAddress}`,
        OTEL_EXPORTER_OTLP_HEADERS: `authorization=${encodeURIComponent(acc.auth.Authorization)}`,
        OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip',
      },
    });
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as { trace_id: string; span_id: string };
    expectTrace(await readBack(out.trace_id, 'python-grpc'), out.span_id, 'python-grpc');
  }, 120_000);
});

// telemetrygen (the Collector's load generator, Go): built into .data/tools by `npm test`
// (deploy/local/telemetrygen.mjs); skipped, saying why, only where Go is not installed.
describe('telemetrygen', () => {
  let bin: string | null = null;
  beforeAll(async () => {
    const { ensureTelemetrygen } = await import('../../deploy/local/telemetrygen.mjs');
    bin = ensureTelemetrygen({ log: console.log });
    if (!bin) console.log('telemetrygen tests skipped: Go is not installed, so telemetrygen cannot be built');
  }, 600_000);

  function telemetrygen(args: string[]): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(bin!, ['traces', '--otlp-insecure', '--traces', '1', '--child-spans', '2', '--otlp-header', `authorization="${acc.auth.Authorization}"`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c: Buffer) => { output += c.toString(); });
      child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code, output }));
    });
  }

  for (const [transport, args, port] of [
    ['--otlp-http (protobuf)', ['--otlp-http'], () => t.app.otlpHttpPort!],
    ['its gRPC default', [], () => t.app.otlpGrpcPort!],
  ] as const) {
    it(`when telemetrygen sends a trace over ${transport}, then its three spans read back with their attributes`, async (ctx) => {
      if (!bin) ctx.skip();
      const marker = `tg-${hex(4)}`;
      const run = await telemetrygen([...args, '--otlp-endpoint', `127.0.0.1:${port()}`, '--service', 'otlp-receivers-e2e', '--telemetry-attributes', `app.marker="${marker}"`]);
      expect(run.code, run.output).toBe(0);
      const found = await eventually(
        () => fetch(`${t.baseUrl}/spans/query`, { method: 'POST', headers: { ...acc.auth, ...JSON_TYPE }, body: JSON.stringify({ filtering: { conditions: [{ field: 'attributes', key: 'app.marker', value: marker }] } }) }).then((r) => r.json() as Promise<any>),
        (b) => b.count >= 1,
      );
      const traceId = found.spans[0].trace_id as string;
      const spans = await eventually(
        () => fetch(`${t.baseUrl}/spans/?trace_id=${traceId}`, { headers: acc.auth }).then((r) => r.json() as Promise<any>),
        (b) => b.count === 3,
      );
      const roots = spans.spans.filter((s: { parent_id?: string | null }) => !s.parent_id);
      expect(roots).toHaveLength(1);
      expect(roots[0].attributes.app.marker).toBe(marker);
      expect(spans.spans.filter((s: { parent_id?: string | null }) => s.parent_id === roots[0].span_id)).toHaveLength(2);
    });
  }
});

// An OpenTelemetry Collector (core build: OTLP receiver → batch → otlp_grpc / otlp_http exporters)
// forwarding to our two OTLP ports, run with the configuration docs/clients.md gives, as written
// there. Built into .data/tools by `npm test` (deploy/local/otelcol.mjs); skipped, saying why, only
// where Go is not installed.
describe('an OpenTelemetry Collector forwarding to us', () => {
  let bin: string | null = null;
  let collector: ChildProcess | undefined;
  let dir: string | undefined;
  let output = '';
  const port = { grpcIn: 0, httpIn: 0, viaHttpIn: 0 };

  beforeAll(async () => {
    const { ensureOtelcol } = await import('../../deploy/local/otelcol.mjs');
    bin = ensureOtelcol({ log: console.log });
    if (!bin) { console.log('Collector forwarding tests skipped: Go is not installed, so the collector cannot be built'); return; }
    // @ts-expect-error plain .mjs module without types
    const { freePort, waitForPort } = (await import('../../deploy/local/ports.mjs')) as {
      freePort(): Promise<number>;
      waitForPort(port: number, opts: { timeoutMs?: number; isAlive?: () => boolean; name?: string }): Promise<void>;
    };
    port.grpcIn = await freePort();
    port.httpIn = await freePort();
    port.viaHttpIn = await freePort();
    dir = mkdtempSync(path.join(os.tmpdir(), 'otelcol-forward-'));
    const doc = readFileSync(path.join(import.meta.dirname, '../../docs/clients.md'), 'utf8');
    const m = /<!-- snippet: otelcol-forward -->\n```yaml\n([\s\S]*?)\n```/.exec(doc);
    if (!m) throw new Error("docs/clients.md has no snippet 'otelcol-forward'");
    writeFileSync(path.join(dir, 'otelcol.yaml'), m[1]!);
    // Merged over the documented file: its receiver on free loopback ports instead of 4317/4318, a
    // second receiver and pipeline through the otlp_http exporter (the file's pipeline uses
    // otlp_grpc), and no internal metrics endpoint (:8888 by default; other collectors may hold it).
    writeFileSync(path.join(dir, 'test.yaml'), [
      'receivers:',
      '  otlp:',
      '    protocols:',
      `      grpc: { endpoint: "127.0.0.1:${port.grpcIn}" }`,
      `      http: { endpoint: "127.0.0.1:${port.httpIn}" }`,
      '  otlp/via-http:',
      '    protocols:',
      `      http: { endpoint: "127.0.0.1:${port.viaHttpIn}" }`,
      'service:',
      '  telemetry: { metrics: { level: none } }',
      '  pipelines:',
      '    traces/via-http: { receivers: [otlp/via-http], processors: [batch], exporters: [otlp_http] }',
      '',
    ].join('\n'));
    collector = spawn(bin, ['--config', path.join(dir, 'otelcol.yaml'), '--config', path.join(dir, 'test.yaml')], {
      env: { ...process.env, LLM_OTLP_GRPC_ENDPOINT: grpcAddress, LLM_OTLP_HTTP_ENDPOINT: httpUrl, LLM_API_KEY: acc.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (c: Buffer) => { output = (output + c.toString()).slice(-20_000); };
    collector.stdout!.on('data', keep);
    collector.stderr!.on('data', keep);
    const alive = () => collector!.exitCode === null && collector!.signalCode === null;
    try {
      for (const p of [port.grpcIn, port.httpIn, port.viaHttpIn]) await waitForPort(p, { timeoutMs: 30_000, name: 'the collector', isAlive: alive });
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${output}`);
    }
  }, 600_000);

  afterAll(async () => {
    const c = collector;
    if (c && c.exitCode === null && c.signalCode === null) {
      // SIGTERM: the collector drains its batch and exporters, then exits.
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      const force = setTimeout(() => c.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(force);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  /** readBack, with the collector's log on failure (an export it could not deliver says why there). */
  async function readBackThrough(traceId: string, label: string): Promise<any> {
    try {
      return await readBack(traceId, label);
    } catch (err) {
      throw new Error(`${(err as Error).message}\ncollector output:\n${output.slice(-5000)}`);
    }
  }

  it('when a trace is exported to it over gRPC, then its otlp_grpc exporter forwards it to our OTLP/gRPC port with the key, and it reads back with its attributes', async (ctx) => {
    if (!bin) ctx.skip();
    const { traceId, parentId } = await exportTrace(new GrpcExporter({ url: `http://127.0.0.1:${port.grpcIn}` }), 'collector-grpc');
    expectTrace(await readBackThrough(traceId, 'collector-grpc'), parentId, 'collector-grpc');
  });

  it('when a trace is exported to it over OTLP/HTTP, then its otlp_http exporter forwards it to our OTLP/HTTP port with the key, and it reads back with its attributes', async (ctx) => {
    if (!bin) ctx.skip();
    const { traceId, parentId } = await exportTrace(new HttpJsonExporter({ url: `http://127.0.0.1:${port.viaHttpIn}/v1/traces` }), 'collector-http');
    expectTrace(await readBackThrough(traceId, 'collector-http'), parentId, 'collector-http');
  });
});
