// Request id + child logger per request; the id is echoed in `x-request-id`. The request line is
// debug for answers, error for server errors, and for refusals (401, 403, 429, 503) info, counted
// and sampled (refusal-log.ts): a flood of refused requests never writes a line each.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@llm/logging';
import { REFUSAL_STATUSES, refusalSampler, type RefusalLogOptions } from './refusal-log.ts';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

const SAFE_ID = /^[A-Za-z0-9._-]{1,100}$/;
/** A hostile URL can be as long as the header limit; a log line keeps its start. */
const MAX_LOGGED_URL = 300;

export interface RequestContextOptions {
  refusals?: RefusalLogOptions | undefined;
}

export function requestContext(log: Logger, opts: RequestContextOptions = {}) {
  const refusals = refusalSampler(opts.refusals);
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.header('x-request-id');
    req.id = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    req.log = log.child({ request_id: req.id });
    res.setHeader('x-request-id', req.id);
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const status = res.statusCode;
      const url = req.originalUrl.length > MAX_LOGGED_URL ? `${req.originalUrl.slice(0, MAX_LOGGED_URL)}…` : req.originalUrl;
      const line: Record<string, unknown> = { method: req.method, url, status, ms: Math.round(ms * 10) / 10 };
      if (REFUSAL_STATUSES.has(status)) {
        const tagged: unknown = res.locals.routeId;
        const route = typeof tagged === 'string' ? tagged : 'unmatched';
        const sampled = refusals.admit(route, status);
        if (!sampled.log) return;
        // Why it was refused, when the error handler knew (an error code, never a message with input in it).
        const reason: unknown = res.locals.refusalReason;
        req.log.info({ ...line, route, ...(typeof reason === 'string' ? { reason } : {}), ...(sampled.suppressed ? { refusals_not_logged: sampled.suppressed } : {}) }, 'request refused');
        return;
      }
      req.log[status >= 500 ? 'error' : 'debug'](line, 'request');
    });
    next();
  };
}
