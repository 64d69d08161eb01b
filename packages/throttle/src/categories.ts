// Which throttle category a request falls in (reference accounts §2.2), and the fnmatch-style globs
// that endpoint throttles use. Paths are compared without their leading `/api` segments, query
// string and trailing slash, and case-insensitively as the router matches them; methods
// case-insensitively too (`ANY` or `*` matches every method). The middleware matches the declared
// path of the route that served the request (served-route.ts), so no spelling changes a category.
import type { Throttle } from '@llm/access';
import { stripApiPrefix } from '@llm/contracts';

export type ThrottleCategory = NonNullable<Throttle['categories']>[number];

/** A `[method, glob]` pair as plans write them. */
export type Endpoint = readonly [method: string, glob: string];

const CATEGORY_ENDPOINTS: ReadonlyArray<{ category: ThrottleCategory; endpoints: readonly Endpoint[] }> = [
  { category: 'core_fast', endpoints: [['POST', '*/retrieve'], ['POST', '/variants/configs/fetch']] },
  { category: 'tracing_fast', endpoints: [['POST', '/otlp/v1/traces']] },
  // Exports (not in the reference) read whole results: the slow tracing reads' bucket, not `standard`.
  { category: 'tracing_slow', endpoints: [['POST', '/tracing/*/query'], ['POST', '/tracing/spans/analytics'], ['POST', '/spans/export'], ['POST', '/traces/export']] },
  { category: 'services_fast', endpoints: [['ANY', '/access/permissions/check']] },
  { category: 'ai_services', endpoints: [['POST', '/ai/services/tools/call']] },
  // core_slow and services_slow have no endpoints; everything else is `standard`.
];

/** `/api/api/x/?q=1` → `/x`: the path the throttles match against. */
export function normalizePath(path: string): string {
  let p = stripApiPrefix(path);
  const q = p.search(/[?#]/);
  if (q >= 0) p = p.slice(0, q);
  if (!p.startsWith('/')) p = `/${p}`;
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  // A `/preview` alias is the same route (compat §5.1): it counts in the same category.
  if (p.slice(0, '/preview/'.length).toLowerCase() === '/preview/') p = p.slice('/preview'.length);
  return p;
}

const globCache = new Map<string, RegExp>();
const GLOB_CACHE_MAX = 1_000;

/**
 * Python's fnmatch: `*` any run of characters (slashes included), `?` one character,
 * `[seq]` / `[!seq]` a character class; everything else literal. An unclosed `[` is literal.
 * Case-insensitive, like the router: a glob matches every spelling of the paths it names.
 */
export function globToRegExp(glob: string): RegExp {
  const hit = globCache.get(glob);
  if (hit) return hit;
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      re += '.*';
    } else if (c === '?') {
      re += '.';
    } else if (c === '[') {
      let j = i + 1;
      if (glob[j] === '!') j++;
      if (glob[j] === ']') j++;
      while (j < glob.length && glob[j] !== ']') j++;
      if (j >= glob.length) {
        re += '\\[';
      } else {
        let body = glob.slice(i + 1, j);
        const negate = body.startsWith('!');
        if (negate) body = body.slice(1);
        body = body.replace(/[\\\]^]/g, '\\$&');
        re += `[${negate ? '^' : ''}${body}]`;
        i = j;
      }
    } else {
      re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  const compiled = new RegExp(`^${re}$`, 'is');
  if (globCache.size >= GLOB_CACHE_MAX) globCache.clear();
  globCache.set(glob, compiled);
  return compiled;
}

/** A configured glob compared like a path: without leading `/api` segments and trailing slash. */
export function normalizeGlob(glob: string): string {
  let g = glob;
  while (g === '/api' || g.startsWith('/api/')) g = g.slice(4) || '/';
  while (g.length > 1 && g.endsWith('/')) g = g.slice(0, -1);
  return g;
}

/** Whether a glob matches a path (both normalized: `/api` prefix, query, trailing slash). */
export function globMatches(glob: string, path: string): boolean {
  return globToRegExp(normalizeGlob(glob)).test(normalizePath(path));
}

const methodMatches = (want: string, method: string): boolean => {
  const w = want.toUpperCase();
  return w === 'ANY' || w === '*' || w === method.toUpperCase();
};

/** Whether `method path` is one of `endpoints`. */
export function endpointMatches(endpoints: readonly Endpoint[], method: string, path: string): boolean {
  const p = normalizePath(path);
  return endpoints.some(([m, glob]) => methodMatches(m, method) && globToRegExp(normalizeGlob(glob)).test(p));
}

/** The category of a request: the first category with a matching endpoint, else `standard`. */
export function categoryOf(method: string, path: string): ThrottleCategory {
  const p = normalizePath(path);
  for (const { category, endpoints } of CATEGORY_ENDPOINTS) {
    if (endpoints.some(([m, glob]) => methodMatches(m, method) && globToRegExp(glob).test(p))) return category;
  }
  return 'standard';
}
