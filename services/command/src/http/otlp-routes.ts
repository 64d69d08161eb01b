// OTLP/HTTP protobuf ingest. Answers are protobuf: an ExportTraceServiceResponse (with
// partial_success when some spans were rejected) or a google.rpc.Status on failure.
import type { Request, RequestHandler, Response } from 'express';
import { encodeExportTraceServiceResponse, encodeRpcStatus } from '@llm/otlp';
import { AppError } from '@llm/errors';
import { inflateBounded, readBoundedBody, statusOf, type Handlers } from '@llm/http';
import type { SpanAppender } from '../adapters/span-appender.ts';
import type { OtlpWorkerPool } from '../adapters/otlp-worker-pool.ts';
import { OTLP_QUOTA_MESSAGE, QuotaExceededError, type QuotaGate } from '../adapters/quota-gate.ts';
import type { IngestPressure } from '../adapters/ingest-pressure.ts';
import { labelledCounter } from '@llm/metrics';

// Spans of decoded requests that were not queued (requests refused unread under overload are
// counted per request: ingest_requests_refused_{lag,backlog}_total).
const refusedSpans = labelledCounter('ingest_spans_refused_total', 'Spans of decoded OTLP requests that were not queued, per reason (invalid, over_quota, too_large, unavailable).', ['reason']);

const PROTOBUF = 'application/x-protobuf';
// google.rpc.Code values for the Status body.
const RPC = { INVALID_ARGUMENT: 3, PERMISSION_DENIED: 7, RESOURCE_EXHAUSTED: 8, UNAVAILABLE: 14, INTERNAL: 13, UNAUTHENTICATED: 16 } as const;

function sendStatus(res: Response, http: number, code: number, message: string): void {
  res.status(http).type(PROTOBUF).send(Buffer.from(encodeRpcStatus(code, message)));
}

export function otlpRoutes(appender: SpanAppender, pool: OtlpWorkerPool, auth: RequestHandler, maxBatchBytes: number, quota: QuotaGate, pressure: IngestPressure): Handlers {
  // Exporters read a google.rpc.Status from any failed export, credentials included.
  const otlpAuth: RequestHandler = (req, res, next) => {
    Promise.resolve(auth(req, res, next)).catch((err: unknown) => {
      if (err instanceof AppError && err.kind === 'unauthenticated') sendStatus(res, 401, RPC.UNAUTHENTICATED, 'Unauthorized');
      else if (err instanceof AppError && err.kind === 'unavailable') { res.setHeader('Retry-After', '1'); sendStatus(res, 503, RPC.UNAVAILABLE, err.message); }
      else next(err);
    });
  };
  return {
    // The spec's liveness probe (auth: none): exporters and load balancers call it without credentials.
    'otlp.traces.status': (_req, res) => { res.json({ status: 'ready' }); },
    'otlp.traces.export': [otlpAuth, async (req: Request, res: Response) => {
      const ctype = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (ctype === 'application/json') {
        sendStatus(res, 415, RPC.INVALID_ARGUMENT, 'OTLP/JSON is not supported; send application/x-protobuf.');
        return;
      }
      if (ctype && ctype !== PROTOBUF && ctype !== 'application/protobuf' && ctype !== 'application/octet-stream') {
        sendStatus(res, 415, RPC.INVALID_ARGUMENT, `Unsupported Content-Type '${ctype}'; send application/x-protobuf.`);
        return;
      }
      // Overload: refused before the body is read or decoded, with the Status exporters retry on.
      const declared = Number(req.header('content-length'));
      const refusal = pressure.check(Number.isFinite(declared) && declared > 0 ? declared : undefined);
      if (refusal) {
        res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
        sendStatus(res, 503, RPC.UNAVAILABLE, refusal.message);
        return;
      }
      let body: Buffer;
      try {
        body = inflateBounded(await readBoundedBody(req, maxBatchBytes), req.header('content-encoding'), maxBatchBytes * 5);
      } catch (err) {
        if (err instanceof AppError) {
          if (err.kind === 'too_large') res.setHeader('Connection', 'close');
          const msg = err.kind === 'too_large' ? `OTLP batch size exceeds ${Math.round(maxBatchBytes / 1e6)}MB limit.` : err.message;
          sendStatus(res, statusOf(err.kind), RPC.INVALID_ARGUMENT, msg);
          return;
        }
        throw err;
      }
      const release = pressure.hold(body.length);
      try {
        await exportBody(req, res, body);
      } finally {
        release();
      }
    }],
  };

  async function exportBody(req: Request, res: Response, body: Buffer): Promise<void> {
    const meta = { projectId: req.scope.projectId, organizationId: req.scope.organizationId, requestId: req.id, actorId: req.scope.userId };
    let prepared;
    try {
      prepared = await pool.run(body, meta);
    } catch (err) {
      req.log.error({ err }, 'preparing spans failed');
      res.setHeader('Retry-After', '1');
      sendStatus(res, 503, RPC.UNAVAILABLE, 'Failed to prepare spans for processing. Retry later.');
      return;
    }
    if (!prepared.ok) {
      sendStatus(res, 400, RPC.INVALID_ARGUMENT, `Invalid request body: not a valid OTLP ExportTraceServiceRequest (${prepared.reason}).`);
      return;
    }
    const { accepted, rejected: rejectedCount, reasons } = prepared;
    if (rejectedCount > 0) refusedSpans.inc({ reason: 'invalid' }, rejectedCount);
    if (accepted === 0 && rejectedCount > 0) {
      // 400, not 500: a 5xx makes exporters retry a poison batch forever.
      sendStatus(res, 400, RPC.INVALID_ARGUMENT, `All ${rejectedCount} spans were rejected: ${reasons}`);
      return;
    }
    try {
      const records = prepared.records.map((r) => ({ key: r.key, value: Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength) }));
      await quota.ingest(req.scope, prepared.traceIds, () => appender.appendEncoded(records, accepted));
    } catch (err) {
      if (err instanceof QuotaExceededError) {
        refusedSpans.inc({ reason: 'over_quota' }, accepted);
        // Reference §2.3: 403 with a Status exporters do not retry; nothing of the batch was appended.
        sendStatus(res, 403, RPC.PERMISSION_DENIED, OTLP_QUOTA_MESSAGE);
        return;
      }
      if (err instanceof AppError && err.kind === 'too_large') {
        refusedSpans.inc({ reason: 'too_large' }, accepted);
        sendStatus(res, 413, RPC.INVALID_ARGUMENT, err.message);
        return;
      }
      req.log.error({ err }, 'queueing spans failed');
      refusedSpans.inc({ reason: 'unavailable' }, accepted);
      res.setHeader('Retry-After', '1');
      sendStatus(res, 503, RPC.UNAVAILABLE, 'Failed to queue spans for processing. Retry later.');
      return;
    }
    const out = rejectedCount > 0 ? encodeExportTraceServiceResponse({ rejectedSpans: rejectedCount, errorMessage: reasons }) : encodeExportTraceServiceResponse();
    res.status(200).type(PROTOBUF).send(Buffer.from(out));
  }
}
