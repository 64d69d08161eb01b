// OTLP/HTTP trace export. The API's /otlp/v1/traces takes protobuf only (the spec answers 415 to
// JSON there); the OTLP port's /v1/traces (otlp-http-app.ts) takes protobuf and OTLP/JSON. Both run
// the same handler over the same OtlpIngest; answers are an ExportTraceServiceResponse (with
// partial_success when some spans were rejected) or a google.rpc.Status, in the request's encoding.
import type { Request, RequestHandler, Response } from 'express';
import { encodeExportTraceServiceResponse, encodeRpcStatus } from '@llm/otlp';
import { AppError } from '@llm/errors';
import { inflateBounded, readBoundedBody, type Handlers, type Guards, chainOf } from '@llm/http';
import type { OtlpIngest } from '../adapters/otlp-ingest.ts';
import type { OtlpEncoding } from '../domain/prepare-otlp.ts';
import { OTLP_HTTP_ANSWER, RPC_CODE, type OtlpOutcome } from '../domain/otlp-outcome.ts';

const PROTOBUF = 'application/x-protobuf';
const PROTOBUF_TYPES = new Set([PROTOBUF, 'application/protobuf', 'application/octet-stream']);

export interface OtlpHttpOptions {
  /** Take OTLP/JSON bodies (the OTLP port); false = 415, as the spec requires of /otlp/v1/traces. */
  acceptJson: boolean;
}

const mediaTypeOf = (req: Request): string => (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/** Whether answers to this request are JSON: only where JSON is taken and the request was JSON. */
const answersJson = (req: Request, opts: OtlpHttpOptions): boolean => opts.acceptJson && mediaTypeOf(req) === 'application/json';

/** A google.rpc.Status answer, protobuf or its JSON mapping. */
export function sendOtlpStatus(res: Response, json: boolean, http: number, code: number, message: string): void {
  if (json) res.status(http).json({ code, message });
  else res.status(http).type(PROTOBUF).send(Buffer.from(encodeRpcStatus(code, message)));
}

function sendOutcome(res: Response, json: boolean, outcome: OtlpOutcome): void {
  if (!outcome.ok) {
    const answer = OTLP_HTTP_ANSWER[outcome.refusal];
    if (outcome.unread) res.setHeader('Connection', 'close');
    if (outcome.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
    sendOtlpStatus(res, json, answer.status, answer.code, outcome.message);
    return;
  }
  const partial = outcome.rejectedSpans > 0 ? { rejectedSpans: outcome.rejectedSpans, errorMessage: outcome.errorMessage } : undefined;
  // proto3 JSON writes int64 as a string.
  if (json) res.status(200).json(partial ? { partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage } } : {});
  else res.status(200).type(PROTOBUF).send(Buffer.from(encodeExportTraceServiceResponse(partial)));
}

/** The authenticator, answering its refusals as an OTLP Status (exporters read one from any failed export). */
export function otlpAuth(auth: RequestHandler, opts: OtlpHttpOptions): RequestHandler {
  return (req, res, next) => {
    Promise.resolve(auth(req, res, next)).catch((err: unknown) => {
      const json = answersJson(req, opts);
      if (err instanceof AppError && err.kind === 'unauthenticated') sendOtlpStatus(res, json, 401, RPC_CODE.UNAUTHENTICATED, 'Unauthorized');
      else if (err instanceof AppError && err.kind === 'unavailable') { res.setHeader('Retry-After', '1'); sendOtlpStatus(res, json, 503, RPC_CODE.UNAVAILABLE, err.message); }
      else next(err);
    });
  };
}

/** The export handler (after authentication and the throttle). */
export function otlpExport(ingest: OtlpIngest, opts: OtlpHttpOptions): RequestHandler {
  return async (req: Request, res: Response) => {
    const ctype = mediaTypeOf(req);
    const json = answersJson(req, opts);
    let encoding: OtlpEncoding;
    if (json) encoding = 'json';
    else if (!ctype || PROTOBUF_TYPES.has(ctype)) encoding = 'protobuf';
    else {
      const message = ctype === 'application/json' ? 'OTLP/JSON is not supported; send application/x-protobuf.'
        : `Unsupported Content-Type '${ctype}'; send ${opts.acceptJson ? 'application/x-protobuf or application/json' : 'application/x-protobuf'}.`;
      sendOtlpStatus(res, false, 415, RPC_CODE.INVALID_ARGUMENT, message);
      return;
    }
    const declared = Number(req.header('content-length'));
    const outcome = await ingest.export({
      scope: req.scope, requestId: req.id, log: req.log, encoding,
      declaredBytes: Number.isFinite(declared) && declared > 0 ? declared : undefined,
      readBody: async () => inflateBounded(await readBoundedBody(req, ingest.maxBatchBytes), req.header('content-encoding'), ingest.maxBatchBytes * 5),
    });
    sendOutcome(res, json, outcome);
  };
}

/** The spec's liveness probe (auth: none): exporters and load balancers call it without credentials. */
export const otlpLiveness: RequestHandler = (_req, res) => { res.json({ status: 'ready' }); };

export function otlpRoutes(deps: { ingest: OtlpIngest }, guards: Guards<'auth'>): Handlers {
  const { ingest } = deps;
  // One authenticator is passed as itself: otlpAuth turns its rejection into the OTLP Status body.
  const auth = guards.auth.length === 1 ? guards.auth[0]! : chainOf(guards.auth);
  const spec: OtlpHttpOptions = { acceptJson: false };
  return {
    'otlp.traces.status': otlpLiveness,
    'otlp.traces.export': [otlpAuth(auth, spec), otlpExport(ingest, spec)],
  };
}
