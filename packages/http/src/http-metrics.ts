// Request duration per route and status. The route label is the route table's id (`otlp.traces.export`),
// set by `tagRoute` when a route of the table matched — never the URL, whose ids and query strings
// would make a series per request. Health and metrics endpoints keep their fixed paths; whatever
// matched nothing is `unmatched`.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DURATION_BUCKETS_SECONDS, histogram } from '@llm/metrics';

const duration = histogram(
  'http_request_duration_seconds',
  'Time from receiving a request to sending the last byte of its answer, per route of the route table, method and status.',
  ['route', 'method', 'status'],
  DURATION_BUCKETS_SECONDS,
);

const FIXED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Marks the request as served by a route of the table (first handler of the route's chain). */
export function tagRoute(routeId: string): RequestHandler {
  return (_req, res, next) => { res.locals.routeId = routeId; next(); };
}

/** Observes every request's duration when its answer is finished (or its connection closed). */
export function httpMetrics(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stop = duration.startTimer();
    let done = false;
    const observe = (): void => {
      if (done) return;
      done = true;
      const tagged: unknown = res.locals.routeId;
      const route = typeof tagged === 'string' ? tagged : FIXED_PATHS.has(req.path) ? req.path : 'unmatched';
      // A client gone before the answer: no status was sent, so none is claimed.
      stop({ route, method: req.method, status: res.writableFinished ? res.statusCode : 'aborted' });
    };
    res.once('finish', observe);
    res.once('close', observe);
    next();
  };
}
