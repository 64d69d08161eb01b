// The OTLP/HTTP receiver on its own port (OTLP_HTTP_PORT, default 4318): `POST /v1/traces` in
// protobuf or OTLP/JSON, where OpenTelemetry exporters send by default. The chain is the API's
// /otlp/v1/traces one — request context, metrics, the OTLP authenticator, the deployment's throttle
// (the same instance, so the same buckets), the export handler over the same OtlpIngest — with JSON
// taken and answered in kind.
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import { httpMetrics, requestContext, tagRoute } from '@llm/http';
import type { Logger } from '@llm/logging';
import type { OtlpIngest } from '../adapters/otlp-ingest.ts';
import { RPC_CODE } from '../domain/otlp-outcome.ts';
import { otlpAuth, otlpExport, otlpLiveness, sendOtlpStatus, type OtlpHttpOptions } from './otlp-routes.ts';

export interface OtlpHttpAppDeps {
  ingest: OtlpIngest;
  auth: RequestHandler;
  /** The deployment's throttle, the one the API port runs (none when access is not enforced). */
  throttle?: RequestHandler | undefined;
  log: Logger;
}

const NOT_FOUND = 5;
const sentJson = (req: Request): boolean => /^\s*application\/json\s*(;|$)/i.test(req.header('content-type') ?? '');

export function createOtlpHttpApp(deps: OtlpHttpAppDeps): Express {
  const opts: OtlpHttpOptions = { acceptJson: true };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(deps.log));
  app.use(httpMetrics());
  // The route ids are the API's: throttles, metrics and refusal logs count the same operation.
  app.get('/v1/traces', tagRoute('otlp.traces.status'), otlpLiveness);
  app.post('/v1/traces', tagRoute('otlp.traces.export'), otlpAuth(deps.auth, opts), ...(deps.throttle ? [deps.throttle] : []), otlpExport(deps.ingest, opts));
  app.use((req, res) => { sendOtlpStatus(res, sentJson(req), 404, NOT_FOUND, 'Not Found: this port serves OTLP traces at POST /v1/traces.'); });
  const onError: ErrorRequestHandler = (err: unknown, req, res, _next) => {
    req.log.error({ err }, 'OTLP request failed');
    if (res.headersSent) { res.destroy(); return; }
    sendOtlpStatus(res, sentJson(req), 500, RPC_CODE.INTERNAL, 'Internal Server Error');
  };
  app.use(onError);
  return app;
}
