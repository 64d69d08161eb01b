// The answers a known path gives besides its routes: a method it does not serve is 405 with the
// `Allow` header listing those it does (an OPTIONS request gets that list with 204), and a body sent
// to a JSON route in another media type is 415 — never the 404 or the 422 "Field required" that the
// router and the validators would give. Paths are matched by an express router built from the same
// route table entries, so the /api prefix, /preview aliases, case and trailing slashes behave exactly
// as for the handlers.
import express, { type RequestHandler } from 'express';
import { mountPaths, type RouteDef } from '@llm/contracts';
import { AppError } from '@llm/errors';

/** The media types the JSON body parser reads (packages/http/src/http-app.ts). */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

/** The methods collected for the request being probed (a WeakMap: nothing is added to the request). */
const collected = new WeakMap<express.Request, Set<string>>();

/**
 * Installed after every route: a request that reaches it matched no route for its method. When the
 * path is one of `routes`' with other methods, answers 405 (or 204 to OPTIONS) with `Allow`;
 * otherwise passes on (to the 404).
 */
export function methodNotAllowed(routes: readonly RouteDef[]): RequestHandler {
  const probe = express.Router();
  for (const r of routes) {
    probe.all(mountPaths(r), (req, _res, next) => { collected.get(req)?.add(r.method); next(); });
  }
  return (req, res, next) => {
    const allowed = new Set<string>();
    collected.set(req, allowed);
    probe(req, res, (err?: unknown) => {
      collected.delete(req);
      if (err) { next(err); return; }
      if (allowed.size === 0) { next(); return; }
      if (allowed.has('GET')) allowed.add('HEAD');
      const allow = [...allowed].sort().join(', ');
      res.setHeader('Allow', allow);
      if (req.method === 'OPTIONS') { res.status(204).end(); return; }
      next(new AppError({ code: 'method_not_allowed', kind: 'method_not_allowed', message: `${req.method} is not allowed here; allowed: ${allow}.` }));
    });
  };
}

/** Whether the request carries a body (a non-zero Content-Length, or a chunked one). */
export function hasBody(req: express.Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * First step of every route that reads a JSON body: a body in any other media type is 415. A body
 * with no Content-Type at all is read as JSON, as the reference does.
 */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const type = req.headers['content-type'];
  if (type === undefined || type === '' || !hasBody(req) || req.is(JSON_MEDIA_TYPES)) { next(); return; }
  next(new AppError({
    code: 'unsupported_media_type', kind: 'unsupported_media_type',
    message: `Unsupported Content-Type '${type.slice(0, 100)}': send the body as application/json.`,
  }));
};
