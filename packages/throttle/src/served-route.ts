// What a request is throttled as: the route of the table that serves it, not the spelling it came
// in. Express matches routes case-insensitively, with or without a trailing slash, under any number
// of `/api` prefixes and, for aliased families, under `/preview`; path globs on the raw spelling let
// `/TRACING/spans/query` escape the `tracing_slow` bucket (issue 24). So when the request reached a
// route of the table (`tagRoute` of @llm/http put its id in `res.locals.routeId`), its category is
// the category of that route's declared path, and plans' endpoint globs see that declared path with
// the request's parameters in it (percent-encoded again, so a decoded `/` stays inside its segment).
import type { Request, Response } from 'express';
import { ROUTES, type RouteId } from '@llm/contracts';
import { categoryOf, normalizePath, type ThrottleCategory } from './categories.ts';

export interface ServedAs {
  category: ThrottleCategory;
  /** The path endpoint globs are matched against (already normalized). */
  path: string;
}

const ROUTE_CATEGORY = new Map<string, ThrottleCategory>(
  (Object.keys(ROUTES) as RouteId[]).map((id) => [id, categoryOf(ROUTES[id].method, ROUTES[id].path)]),
);

/** The category of a route of the table (the category of its declared method and path). */
export function routeCategory(id: RouteId): ThrottleCategory {
  return ROUTE_CATEGORY.get(id) ?? 'standard';
}

/** A route's declared path with `params` in place of its `:name` segments. */
export function declaredPath(id: RouteId, params: Readonly<Record<string, unknown>>): string {
  return ROUTES[id].path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string) => {
    const v = params[name];
    return typeof v === 'string' ? encodeURIComponent(v) : whole;
  });
}

/** The route id a request was served by, when it is one of the table. */
function routeIdOf(res: Response): RouteId | undefined {
  const id: unknown = (res.locals as Record<string, unknown> | undefined)?.routeId;
  return typeof id === 'string' && Object.hasOwn(ROUTES, id) ? (id as RouteId) : undefined;
}

/**
 * What the throttle counts a request as: its route's category and declared path when it reached a
 * route of the table; otherwise (the middleware mounted outside the table) its normalized spelling,
 * matched case-insensitively like the router.
 */
export function servedAs(req: Request, res: Response): ServedAs {
  const id = routeIdOf(res);
  if (id) return { category: routeCategory(id), path: declaredPath(id, req.params as Record<string, unknown>) };
  return { category: categoryOf(req.method, req.path), path: normalizePath(req.path) };
}
