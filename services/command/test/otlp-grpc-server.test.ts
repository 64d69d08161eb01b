// The OTLP/gRPC receiver's refusals through a real grpc-js client, before anything reaches Kafka:
// the API key read from the `authorization` metadata as the HTTP header is, the throttle's
// RESOURCE_EXHAUSTED with RetryInfo, overload's UNAVAILABLE with RetryInfo, the body limit, and a
// clean shutdown. What is accepted is tested end to end (test/e2e/otlp-receivers.e2e.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { DEFAULT_PLANS } from '@llm/access';
import { apiKeyAuthenticator, generateApiKey } from '@llm/auth';
import { createLogger } from '@llm/logging';
import { encodeExportTraceServiceRequest } from '@llm/otlp';
import { throttleMiddleware } from '@llm/throttle';
import { startOtlpGrpcServer, type OtlpGrpcServer } from '../src/ingest/adapters/otlp-grpc-server.ts';
import { OtlpIngest } from '../src/ingest/adapters/otlp-ingest.ts';
import { OtlpWorkerPool } from '../src/ingest/adapters/otlp-worker-pool.ts';
import { IngestPressure } from '../src/ingest/adapters/ingest-pressure.ts';
import type { SpanAppender } from '../src/ingest/adapters/span-appender.ts';
import type { QuotaGate } from '../src/quota/adapters/quota-gate.ts';

const EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const SCOPE = { projectId: 'p', workspaceId: 'w', organizationId: 'org-1', userId: 'u', apiKeyId: 'k' };
const KEY = generateApiKey();
const log = createLogger({ name: 'test', level: 'silent' });

const errorDetails = protobuf.Root.fromJSON({
  nested: {
    Status: { fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 }, details: { rule: 'repeated', type: 'Any', id: 3 } } },
    Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } },
    RetryInfo: { fields: { retryDelay: { type: 'Duration', id: 1 } } },
    Duration: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
  },
});
const Status = errorDetails.lookupType('Status');
const RetryInfo = errorDetails.lookupType('RetryInfo');

/** Nothing in these tests may reach the append or the quota: they would throw. */
const unreachable = (what: string) => new Proxy({}, { get: () => { throw new Error(`${what} reached`); } });

let server: OtlpGrpcServer | undefined;
afterEach(async () => { await server?.close(1_000); server = undefined; });

async function start(opts: { maxPendingBytes?: number; throttleCapacity?: number } = {}): Promise<{ pressure: IngestPressure }> {
  const pressure = new IngestPressure({ lagTargetMs: 0, lagHardMs: 1, staleMs: 5_000, maxPendingBytes: opts.maxPendingBytes ?? 1024 * 1024 });
  const ingest = new OtlpIngest(unreachable('append') as SpanAppender, new OtlpWorkerPool(0), unreachable('quota') as QuotaGate, pressure, 64 * 1024);
  const auth = apiKeyAuthenticator({ lookup: (prefix, hash) => Promise.resolve(prefix === KEY.prefix && hash === KEY.secretHash ? SCOPE : undefined) });
  const plans = { ...DEFAULT_PLANS, tiny: { throttles: [{ bucket: { capacity: opts.throttleCapacity ?? 1000, rate: 1 }, mode: 'include' as const, categories: ['tracing_fast' as const] }] } };
  const throttle = throttleMiddleware({ plans, planOf: () => Promise.resolve('tiny') });
  server = await startOtlpGrpcServer({ ingest, auth, throttle, log }, 0, '127.0.0.1');
  return { pressure };
}

type Answer = { ok: true } | { code: number; details: string; retryDelaySeconds: number | undefined };

function exportCall(body: Uint8Array, authorization?: string): Promise<Answer> {
  const client = new Client(`127.0.0.1:${server!.port}`, credentials.createInsecure());
  const metadata = new Metadata();
  if (authorization !== undefined) metadata.set('authorization', authorization);
  return new Promise((resolve) => {
    client.makeUnaryRequest(EXPORT, (b: Buffer) => b, (b: Buffer) => b, Buffer.from(body), metadata, (err: ServiceError | null) => {
      client.close();
      if (!err) { resolve({ ok: true }); return; }
      const [bin] = err.metadata.get('grpc-status-details-bin');
      let retryDelaySeconds: number | undefined;
      if (bin instanceof Buffer) {
        const status = Status.toObject(Status.decode(bin)) as { code: number; details?: Array<{ type_url: string; value: Uint8Array }> };
        expect(status.code).toBe(err.code);
        const info = status.details?.find((d) => d.type_url === 'type.googleapis.com/google.rpc.RetryInfo');
        if (info) retryDelaySeconds = (RetryInfo.toObject(RetryInfo.decode(info.value), { longs: Number }) as { retryDelay: { seconds: number } }).retryDelay.seconds;
      }
      resolve({ code: err.code, details: err.details, retryDelaySeconds });
    });
  });
}

const body = encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 's' }] }] }] });

describe('OTLP/gRPC receiver', () => {
  it('when the authorization metadata is missing, malformed or an unknown key, then UNAUTHENTICATED without retry info', async () => {
    await start();
    for (const authorization of [undefined, 'Bearer x', `ApiKey ${generateApiKey().raw}`]) {
      expect(await exportCall(body, authorization)).toEqual({ code: 16, details: 'Unauthorized', retryDelaySeconds: undefined });
    }
  });

  it('when the organization is over its throttle, then RESOURCE_EXHAUSTED with the RetryInfo exporters retry on', async () => {
    const { pressure } = await start({ throttleCapacity: 1, maxPendingBytes: 1 });
    pressure.hold(1);
    // The first export passes the throttle (and is refused by the saturated pipeline); the second is throttled.
    expect(await exportCall(body, `ApiKey ${KEY.raw}`)).toMatchObject({ code: 14 });
    const throttled = await exportCall(body, KEY.raw);
    expect(throttled).toMatchObject({ code: 8, details: expect.stringMatching(/^Rate limit exceeded\. Please retry after \d+ seconds\.$/) as string });
    expect((throttled as { retryDelaySeconds: number }).retryDelaySeconds).toBeGreaterThan(1);
  });

  it('when the ingest pipeline is saturated, then UNAVAILABLE with RetryInfo before the message is decoded', async () => {
    const { pressure } = await start({ maxPendingBytes: 1 });
    const release = pressure.hold(1);
    expect(await exportCall(Buffer.from('not protobuf at all'), `ApiKey ${KEY.raw}`)).toEqual({
      code: 14, details: 'The ingest pipeline is saturated (too much waiting to be queued). Retry later.', retryDelaySeconds: 1,
    });
    release();
    // Once it drains, the same garbage is decoded and refused as bad data, not to be retried.
    expect(await exportCall(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), `ApiKey ${KEY.raw}`)).toMatchObject({ code: 3, retryDelaySeconds: undefined });
  });

  it('when the message is over the body limit, then RESOURCE_EXHAUSTED from gRPC itself', async () => {
    await start();
    expect(await exportCall(Buffer.alloc(64 * 1024 + 1, 0x0a), `ApiKey ${KEY.raw}`)).toMatchObject({ code: 8, retryDelaySeconds: undefined });
  });

  it('when the server closes, then it stops accepting calls', async () => {
    await start();
    const port = server!.port;
    await server!.close(1_000);
    server = undefined;
    const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
    const code = await new Promise<number>((resolve) => {
      client.makeUnaryRequest(EXPORT, (b: Buffer) => b, (b: Buffer) => b, Buffer.from(body), new Metadata(), { deadline: Date.now() + 2_000 }, (err: ServiceError | null) => { client.close(); resolve(err?.code ?? 0); });
    });
    expect(code).toBe(14);
  });
});
