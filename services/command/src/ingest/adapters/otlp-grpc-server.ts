// The OTLP/gRPC receiver (OTLP_GRPC_PORT, default 4317): opentelemetry.proto.collector.trace.v1.
// TraceService/Export on @grpc/grpc-js, the only module that imports it. The request message is
// taken as its raw bytes (no generated code): the export runs the same OtlpIngest as OTLP/HTTP —
// the same protobuf decoder in the same worker, the same quota and records — after the API key of
// the `authorization` metadata, read exactly as the HTTP `Authorization` header, and the
// deployment's throttle, checked against the same buckets. gRPC itself inflates gzip messages and
// refuses any over the body limit (decompressed) with RESOURCE_EXHAUSTED.
import { randomUUID } from 'node:crypto';
import { Metadata, Server, ServerCredentials, status, type sendUnaryData, type ServerUnaryCall, type ServiceDefinition } from '@grpc/grpc-js';
import { AppError } from '@llm/errors';
import type { Logger } from '@llm/logging';
import { labelledCounter } from '@llm/metrics';
import { encodeExportTraceServiceResponse, encodeRpcStatus } from '@llm/otlp';
import type { Scope } from '@llm/auth';
import { declaredPath, routeCategory, type Throttle } from '@llm/throttle';
import { OTLP_GRPC_CODE, type OtlpOutcome } from '../domain/otlp-outcome.ts';
import type { OtlpIngest } from './otlp-ingest.ts';

const exportCalls = labelledCounter('otlp_grpc_exports_total', 'OTLP/gRPC Export calls answered, per gRPC status code name.', ['code']);

const identity = (b: Buffer): Buffer => b;
const TRACE_SERVICE: ServiceDefinition = {
  Export: {
    path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
};

/** What the throttle counts an export as: the API route it shares its buckets with. */
const SERVED_AS = { method: 'POST', category: routeCategory('otlp.traces.export'), path: declaredPath('otlp.traces.export', {}) };
const SAFE_ID = /^[A-Za-z0-9._-]{1,100}$/;
const CODE_NAMES = new Map<number, string>(Object.entries(status).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v as number, k]));

export interface OtlpGrpcDeps {
  ingest: OtlpIngest;
  auth: { scopeOf(authorization: string | undefined): Promise<Scope | undefined> };
  throttle?: Throttle | undefined;
  log: Logger;
}

export interface OtlpGrpcServer {
  port: number;
  inFlight(): number;
  /** Stops accepting calls, lets the ones in flight finish, cancels what is left after `graceMs`. */
  close(graceMs: number): Promise<void>;
}

const firstString = (values: Array<string | Buffer>): string | undefined => {
  const v = values[0];
  return typeof v === 'string' ? v : undefined;
};

export function startOtlpGrpcServer(deps: OtlpGrpcDeps, port: number, host: string): Promise<OtlpGrpcServer> {
  const server = new Server({
    'grpc.max_receive_message_length': deps.ingest.maxBatchBytes,
    // Idle exporters keep their connection; dead ones are found by keepalive pings.
    'grpc.keepalive_time_ms': 60_000,
  });
  let active = 0;

  async function admit(call: ServerUnaryCall<Buffer, Buffer>, requestId: string, log: Logger): Promise<OtlpOutcome> {
    let scope: Scope | undefined;
    try {
      scope = await deps.auth.scopeOf(firstString(call.metadata.get('authorization')));
    } catch (err) {
      if (err instanceof AppError && err.kind === 'unavailable') return { ok: false, refusal: 'unavailable', message: err.message, retryAfterSeconds: 1 };
      throw err;
    }
    if (!scope) return { ok: false, refusal: 'unauthenticated', message: 'Unauthorized' };
    if (deps.throttle) {
      const verdict = await deps.throttle.check(scope.organizationId, SERVED_AS, log);
      if (!verdict.allowed) return { ok: false, refusal: 'rate_limited', message: verdict.detail, retryAfterSeconds: Math.ceil(verdict.retryAfterMs / 1000) + 1 };
    }
    const body = call.request;
    return deps.ingest.export({ scope, requestId, log, encoding: 'protobuf', declaredBytes: body.length, readBody: () => Promise.resolve(body) });
  }

  function answer(callback: sendUnaryData<Buffer>, outcome: OtlpOutcome, log: Logger): void {
    if (outcome.ok) {
      exportCalls.inc({ code: 'OK' });
      const partial = outcome.rejectedSpans > 0 ? { rejectedSpans: outcome.rejectedSpans, errorMessage: outcome.errorMessage } : undefined;
      callback(null, Buffer.from(encodeExportTraceServiceResponse(partial)));
      return;
    }
    const code = OTLP_GRPC_CODE[outcome.refusal];
    exportCalls.inc({ code: CODE_NAMES.get(code) ?? String(code) });
    log.debug({ code, refusal: outcome.refusal }, 'OTLP/gRPC export refused');
    const metadata = new Metadata();
    // RetryInfo is what makes an exporter retry RESOURCE_EXHAUSTED, and when it retries UNAVAILABLE.
    if (outcome.retryAfterSeconds !== undefined) metadata.set('grpc-status-details-bin', Buffer.from(encodeRpcStatus(code, outcome.message, outcome.retryAfterSeconds)));
    callback({ code, details: outcome.message, metadata });
  }

  server.addService(TRACE_SERVICE, {
    Export: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
      active++;
      const incoming = firstString(call.metadata.get('x-request-id'));
      const requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
      const log = deps.log.child({ request_id: requestId });
      void admit(call, requestId, log).then(
        (outcome) => { answer(callback, outcome, log); },
        (err: unknown) => {
          log.error({ err }, 'OTLP/gRPC export failed');
          exportCalls.inc({ code: 'INTERNAL' });
          callback({ code: status.INTERNAL, details: 'Internal error' });
        },
      ).finally(() => { active--; });
    },
  });

  return new Promise((resolve, reject) => {
    // grpc-js takes an address, IPv6 in brackets.
    const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    server.bindAsync(address, ServerCredentials.createInsecure(), (err, bound) => {
      if (err) { reject(err); return; }
      let closing: Promise<void> | undefined;
      resolve({
        port: bound,
        inFlight: () => active,
        close: (graceMs) => (closing ??= new Promise<void>((done) => {
          const cut = setTimeout(() => { server.forceShutdown(); done(); }, graceMs);
          cut.unref();
          server.tryShutdown(() => { clearTimeout(cut); done(); });
        })),
      });
    });
  });
}
