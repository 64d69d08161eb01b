// Express glue shared by every HTTP side: /api prefix, request context, JSON bodies, health,
// route registration from the route table, 405/415 for known paths, 404, the central error handler,
// and the server whose own parser errors (431, 400, 408) answer with a body too.
import express, { type Express, type RequestHandler } from 'express';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { ROUTES, mountPaths, routesOf, stripApiPrefix, type RouteDef, type RouteId, type Side } from '@llm/contracts';
import { notFound } from '@llm/errors';
import { authChallenges } from './auth-challenge.ts';
import type { Logger } from '@llm/logging';
import { errorHandler } from './error-handler.ts';
import { closeOnShutdown, type Readiness } from './readiness.ts';
import { requestContext } from './request-context.ts';
import type { RefusalLogOptions } from './refusal-log.ts';
import { httpMetrics, tagRoute } from './http-metrics.ts';
import { JSON_MEDIA_TYPES, methodNotAllowed, requireJsonBody } from './method-guard.ts';

export type Handlers = Partial<Record<RouteId, RequestHandler | RequestHandler[]>>;

export interface HttpAppOptions {
  log: Logger;
  readiness: Readiness;
  jsonLimitBytes: number;
  /** Runs right before every route's final handler (after its authentication and guards). */
  beforeHandler?: RequestHandler | undefined;
  /**
   * Runs before routing, for every request (e.g. the operator gate on `/admin/`
   * paths, which must answer 401 even where no route matches).
   */
  beforeRouting?: RequestHandler | undefined;
  /** How refused requests (401, 403, 429, 503) are sampled in the log (default 10 lines per 10 s). */
  refusalLog?: RefusalLogOptions | undefined;
}

export interface MountOptions {
  /** Runs right before the route's final handler, i.e. after the ones listed before it (auth, guards). */
  beforeHandler?: RequestHandler | undefined;
}

/** Registers the handlers of one side; every route of that side must have a handler. */
export function mountSide(app: Express, side: Side, handlers: Handlers, opts: MountOptions = {}): void {
  for (const id of routesOf(side)) {
    const h = handlers[id];
    if (!h) throw new Error(`no handler for route ${id} on side ${side}`);
    const r: RouteDef = ROUTES[id];
    const method = r.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const own = Array.isArray(h) ? h : [h];
    if (own.length === 0) throw new Error(`no handler for route ${id} on side ${side}`);
    // A route that reads a JSON body refuses any other media type first (415, not a validator's 422).
    const chain = [tagRoute(id), ...(r.method === 'GET' || r.rawBody === true ? [] : [requireJsonBody]), ...own];
    // One registration for the route and its /preview alias (compat §5.1), so both keep the table's order.
    app[method](mountPaths(r), ...(opts.beforeHandler ? [...chain.slice(0, -1), opts.beforeHandler, chain[chain.length - 1]!] : chain));
  }
}

export function createHttpApp(opts: HttpAppOptions, sides: Array<{ side: Side; handlers: Handlers }>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req, _res, next) => { req.url = stripApiPrefix(req.url); next(); });
  app.use(authChallenges);
  app.use(requestContext(opts.log, { refusals: opts.refusalLog }));
  app.use(httpMetrics());
  app.use(closeOnShutdown(opts.readiness));
  if (opts.beforeRouting) app.use(opts.beforeRouting);
  // JSON bodies for every route except those the route table marks `rawBody` (OTLP protobuf, signed
  // processor events), which read their own bounded body. Express's own matching marks them (so the
  // /api prefix and trailing slashes behave as for the handlers); any /otlp/ path is left alone too.
  const raw = new WeakSet<express.Request>();
  for (const s of sides) {
    for (const id of routesOf(s.side)) {
      const r: RouteDef = ROUTES[id];
      if (r.rawBody) app[r.method.toLowerCase() as 'post'](mountPaths(r), (req, _res, next) => { raw.add(req); next(); });
    }
  }
  // A body without any Content-Type is read as JSON (as the reference reads it); one in another
  // media type is left unread, and its route answers 415 (method-guard.ts).
  const json = express.json({
    limit: opts.jsonLimitBytes,
    type: (req) => { const t = req.headers['content-type']; return t === undefined || t === '' || Boolean((req as express.Request).is(JSON_MEDIA_TYPES)); },
  });
  app.use((req, res, next) => (raw.has(req) || req.path.startsWith('/otlp/') ? next() : json(req, res, next)));
  for (const s of sides) mountSide(app, s.side, s.handlers, { beforeHandler: opts.beforeHandler });
  app.use(methodNotAllowed(sides.flatMap((s) => routesOf(s.side).map((id) => ROUTES[id]))));
  app.use((_req, _res, next) => { next(notFound('not_found', 'Not Found')); });
  app.use(errorHandler());
  return app;
}

export interface RunningServer {
  port: number;
  /**
   * Stops accepting connections and lets the requests in flight finish with their normal answers
   * (their connections close after the response); after `graceMs` (default 20 s) whatever is still
   * open is cut. Resolves once every connection is closed. Idempotent.
   */
  close(graceMs?: number): Promise<void>;
  /** Requests being answered right now. */
  inFlight(): number;
}

export function listen(app: Express, port: number, host: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = http.createServer({ keepAliveTimeout: 65_000 }, app);
    const active = new Set<http.ServerResponse>();
    let closing: Promise<void> | undefined;
    // Before the app's own listener: a synchronous route has sent its headers by the time later
    // listeners run.
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      active.add(res);
      // A keep-alive connection may bring one more request after close began: answer it, then close.
      if (closing && !res.headersSent) res.setHeader('Connection', 'close');
      res.once('close', () => {
        active.delete(res);
        if (closing) server.closeIdleConnections();
      });
    });
    server.on('clientError', answerClientError);
    server.once('error', reject);
    server.listen(port, host, () => {
      const addr = server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      resolve({
        port: actual,
        inFlight: () => active.size,
        close: (graceMs = 20_000) => (closing ??= new Promise<void>((r) => {
          server.close(() => r());
          // Responses still to be written tell their client not to reuse the connection.
          for (const res of active) if (!res.headersSent) res.setHeader('Connection', 'close');
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), graceMs).unref();
        })),
      });
    });
  });
}

// What Node's HTTP parser refuses before any route sees the request, with the status Node itself
// would send, but with a JSON body like every other error (Node's own answers are bodiless).
const PARSER_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Request body chunk extensions too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout.'],
};

/** `server.on('clientError')`: answers a request the parser refused, then closes the connection. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // A response already under way on this connection (pipelining) cannot be followed by another.
  const underWay = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === 'ECONNRESET' || !socket.writable || underWay) { socket.destroy(); return; }
  const [status, detail] = PARSER_ERRORS[err.code ?? ''] ?? [400, 'Bad request.'];
  const body = JSON.stringify({ detail });
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** The middleware chains a route factory's routes run behind, by role (`view`, `edit`, `admin`, …). */
export type Guards<K extends string> = Readonly<Record<K, readonly RequestHandler[]>>;

/** Every route factory has this shape: what it needs, the chains its routes run behind → handlers by route id. */
export type RouteFactory<D, K extends string> = (deps: D, guards: Guards<K>) => Handlers;

/** One handler that runs a chain in order (an error, or a handler that answers, ends it), for an API that takes a single one. */
export function chainOf(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      const h = handlers[i++];
      if (err !== undefined || h === undefined) { next(err); return; }
      Promise.resolve(h(req, res, step)).catch(step);
    };
    step();
  };
}
