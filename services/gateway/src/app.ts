// The gateway of the split deployment: one base URL, each route proxied to the side that serves it
// according to the shared route table (the all-in-one app mounts the same table directly).
import express, { type Express } from 'express';
import { ROUTES, mountPaths, stripApiPrefix, type RouteId, type Side } from '@llm/contracts';
import { closeOnShutdown, errorHandler, httpMetrics, methodNotAllowed, requestContext, tagRoute, type Readiness } from '@llm/http';
import type { Logger } from '@llm/logging';
import { proxyTo } from './http/proxy.ts';

/** Each side's upstream: one base URL, or its replicas' (taken in turn, see proxyTo). */
export function createGateway(upstreams: Record<Side, string | readonly string[]>, log: Logger, readiness: Readiness): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext(log));
  app.use(httpMetrics());
  app.use(closeOnShutdown(readiness));
  const proxies = Object.fromEntries(Object.entries(upstreams).map(([side, url]) => [side, proxyTo(url)])) as Record<Side, express.RequestHandler>;
  const router = express.Router();
  for (const id of Object.keys(ROUTES) as RouteId[]) {
    const r = ROUTES[id];
    router[r.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](mountPaths(r), tagRoute(id), proxies[r.side]);
  }
  // Match on the /api-stripped path but forward the path as the client sent it (the upstream strips too).
  app.use((req, res, next) => {
    const original = req.url;
    req.url = stripApiPrefix(req.url);
    router(req, res, (err?: unknown) => { req.url = original; next(err); });
  });
  // An /admin/ path no route matches still goes to the command side: its operator gate answers 401
  // to an unauthenticated call whether or not the route exists (compat §2.1).
  app.use((req, res, next) => (stripApiPrefix(req.path).toLowerCase().includes('/admin/') ? proxies.command(req, res, next) : next()));
  // A known path with a method no side serves: 405 with Allow, as the all-in-one app answers.
  const wrongMethod = methodNotAllowed(Object.values(ROUTES));
  app.use((req, res, next) => {
    const original = req.url;
    req.url = stripApiPrefix(req.url);
    wrongMethod(req, res, (err?: unknown) => { req.url = original; next(err); });
  });
  app.use((_req, res) => { res.status(404).json({ detail: 'Not Found' }); });
  app.use(errorHandler());
  return app;
}
