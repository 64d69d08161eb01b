// The one place that turns errors into HTTP responses. Bodies stay compatible with the interface:
// `{"detail": "<message>"}`, 422 `{"detail":[{loc,msg,type}]}`; 5xx bodies are opaque and logged.
// Operator paths (`/admin/`) answer every other error as the reference's admin routes do,
// `{"detail":{"message": "<message>", …}}`, whichever layer refused (docs/limits-and-failures.md).
import type { NextFunction, Request, Response } from 'express';
import { AppError, isNetworkErrorCode, type ErrorKind } from '@llm/errors';
import { RequestValidationError } from './validation.ts';

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  unprocessable: 422,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
  bad_gateway: 502,
  internal: 500,
};

export const statusOf = (kind: ErrorKind): number => STATUS[kind];

interface BodyParserError { type?: string; status?: number; expose?: boolean; message: string; body?: unknown }

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request.', 403: 'Forbidden.', 404: 'Not Found', 405: 'Method not allowed.', 408: 'Request timeout.', 411: 'Length required.',
  413: 'Request body too large.', 414: 'Request URI too long.', 415: 'Unsupported media type.', 422: 'Unprocessable request.', 431: 'Request header fields too large.',
};

/**
 * The 4xx of an http-errors error (what the router, body-parser, raw-body and type-is raise: a
 * numeric `status` and a boolean `expose`), if any. An upstream client's error that merely carries
 * a `statusCode` (a payment processor's 400 to us) is not the client's fault and stays a 500.
 */
export function clientErrorStatus(err: unknown): number | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as { status?: unknown; expose?: unknown };
  if (typeof e.status !== 'number' || typeof e.expose !== 'boolean') return undefined;
  return Number.isInteger(e.status) && e.status >= 400 && e.status < 500 ? e.status : undefined;
}

/** Operator paths: the reference's admin error shape (compat §2.1). */
const isOperatorPath = (path: string | undefined): boolean => (path ?? '').toLowerCase().includes('/admin/');

/** Sends `{"detail": message, …extra}`, or nested (an operator path, an error that asks for it) `{"detail": {"message": message, …extra}}`. */
function sendError(req: Request, res: Response, status: number, message: string, extra?: Record<string, unknown>, nested = false): void {
  if (nested || isOperatorPath(req.path)) res.status(status).json({ detail: { message, ...extra } });
  else res.status(status).json(extra ? { detail: message, ...extra } : { detail: message });
}

export function errorHandler() {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) {
      req.log?.error({ err }, 'error after headers were sent');
      res.end();
      return;
    }
    if (err instanceof RequestValidationError) {
      res.status(422).json({ detail: err.issues });
      return;
    }
    if (err instanceof AppError && err.kind === 'unprocessable') {
      // The spec's 422 shape: the body was well-formed but its content cannot be accepted.
      res.status(422).json({ detail: [{ loc: ['body'], msg: err.message, type: err.code }] });
      return;
    }
    if (err instanceof AppError) {
      const status = STATUS[err.kind];
      // A 503 is a refusal (overload, a dependency down): counted and sampled by the request line, with its code.
      if (err.kind === 'unavailable') { res.locals.refusalReason = err.code; res.setHeader('Retry-After', '1'); }
      else if (status >= 500) req.log?.error({ err, code: err.code }, err.message);
      else if (status === 401 || status === 403 || status === 429) res.locals.refusalReason = err.code;
      // 503 and 502 say which dependency is missing or failing (our own words, never an upstream's body).
      const detail = status >= 500 && err.kind !== 'unavailable' && err.kind !== 'bad_gateway' ? 'An internal error has occurred.' : err.message;
      sendError(req, res, status, detail, err.details !== undefined && status < 500 ? asObject(err.details) : undefined, err.nested);
      return;
    }
    if (isStoreUnreachable(err)) {
      // A read model or the broker being down is not a bug: 503 tells clients to retry. Logged with
      // the refusal line (sampled), not once per request: an outage under load would flood the log.
      const code = (err as { code?: unknown }).code;
      res.locals.refusalReason = `store_unavailable${typeof code === 'string' ? `:${code.slice(0, 40)}` : ''}`;
      res.setHeader('Retry-After', '1');
      sendError(req, res, 503, 'A backing store is not available; retry shortly.');
      return;
    }
    if (isZlibError(err)) {
      // body-parser hands on zlib's own error for a corrupt gzip/deflate body.
      sendError(req, res, 400, `Body is not valid ${req.header('content-encoding') ?? 'compressed'} data.`);
      return;
    }
    if (err instanceof URIError) {
      // The router decoding a path parameter (`/secrets/%zz`, `/x/%ud800`; it sets status 400 but
      // no type), or any decodeURIComponent of client text: the input is malformed, never a bug.
      sendError(req, res, 400, 'The request path or a parameter is not valid percent-encoding.');
      return;
    }
    const bp = err as BodyParserError;
    if (bp && typeof bp === 'object' && typeof bp.type === 'string') {
      if (bp.type === 'entity.too.large') { sendError(req, res, 413, 'Request body too large.'); return; }
      if (bp.type === 'entity.parse.failed') {
        res.status(422).json({ detail: [{ loc: ['body'], msg: jsonDecodeMessage(bp.message), type: 'json_invalid' }] });
        return;
      }
    }
    const clientStatus = clientErrorStatus(err);
    if (clientStatus !== undefined) {
      // Any other error of the router or a parser that names a 4xx (http-errors: charset or
      // encoding unsupported 415, aborted or mis-sized body 400, ...): that status, in our words
      // when the message is not meant for clients, and never longer than a line.
      const exposed = (err as { expose?: unknown }).expose === true && typeof (err as Error).message === 'string';
      sendError(req, res, clientStatus, exposed ? (err as Error).message.slice(0, 200) : (STATUS_TEXT[clientStatus] ?? 'Bad request.'));
      return;
    }
    req.log?.error({ err }, 'unhandled error');
    sendError(req, res, 500, 'An internal error has occurred.');
  };
}

/**
 * Where V8 ends a JSON.parse message with the offset ("… in JSON at position 12", "… after JSON at
 * position 7", newer V8 adding " (line 1 column 13)"). Only the end of the message is read: the
 * messages that quote the body ("Unexpected token 's', …"key":sk-live-…" is not valid JSON") end
 * in fixed words instead, so no character of the body can be taken for the position.
 */
const JSON_POSITION = /JSON at position (\d{1,15})(?: \(line \d+ column \d+\))?$/;

/**
 * The 422 message for a body that is not JSON: fixed words and at most the parser's character
 * position, never the parser's own message, which quotes part of the body (a credential, say).
 */
export function jsonDecodeMessage(parserMessage: unknown): string {
  const m = typeof parserMessage === 'string' ? JSON_POSITION.exec(parserMessage) : null;
  return m ? `JSON decode error at position ${m[1]}` : 'JSON decode error';
}

function isZlibError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^Z_[A-Z_]+$/.test(code);
}

function asObject(d: unknown): Record<string, unknown> {
  return d && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : { details: d };
}

// Connection-level failures of any socket (the shared list in @llm/errors), and Postgres shutting
// down or out of connections (SQLSTATE class 08, 57P01-57P03, 53300).
const PG_UNREACHABLE = new Set(['57P01', '57P02', '57P03', '53300']);

export function isStoreUnreachable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return isNetworkErrorCode(code) || PG_UNREACHABLE.has(code) || /^08\d{3}$/.test(code);
  // node-postgres reports a connection lost mid-query without a code.
  return err instanceof Error && /^Connection terminated/.test(err.message);
}
