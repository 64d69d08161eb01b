// The `/preview<prefix>` aliases (reference compat §5.1): the reference mounts some route families a
// second time under `/preview` with identical handlers and codes. The rule is decided here, by path
// prefix, once for every router (the all-in-one app, each side, the gateway), so a route declared later
// under an aliased family gets its `/preview` copy without anyone remembering to add it.
import type { RouteDef } from './routes.ts';

/** Families served twice, as `/preview<prefix>/…`. Longest-match does not matter: any match aliases. */
export const PREVIEW_ALIASED_PREFIXES = [
  '/tracing', '/traces', '/spans', '/simple/traces',
  '/queries', '/simple/queries',
  '/invocations', '/annotations', '/testcases', '/testsets', '/simple/testsets',
  '/applications', '/simple/applications', '/workflows', '/simple/workflows',
  '/evaluators', '/simple/evaluators', '/environments', '/simple/environments',
  '/evaluations', '/simple/evaluations', '/simple/queues', '/tools', '/triggers',
] as const;

/** Routes of an aliased family that the reference serves only under their own path. */
const NOT_ALIASED: ReadonlyArray<Pick<RouteDef, 'method' | 'path'>> = [
  { method: 'POST', path: '/traces/ingest' },
  // The legacy analytics router is a separate mount without a /preview copy.
  { method: 'POST', path: '/tracing/spans/analytics' },
];

const underPrefix = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

/** Whether a route also answers under `/preview`. */
export function hasPreviewAlias(r: Pick<RouteDef, 'method' | 'path'>): boolean {
  if (NOT_ALIASED.some((x) => x.method === r.method && x.path === r.path)) return false;
  return PREVIEW_ALIASED_PREFIXES.some((p) => underPrefix(r.path, p));
}

/** Every path a route is mounted at: its own, then its `/preview` copy when its family is aliased. */
export function mountPaths(r: Pick<RouteDef, 'method' | 'path'>): string[] {
  return hasPreviewAlias(r) ? [r.path, `/preview${r.path}`] : [r.path];
}
