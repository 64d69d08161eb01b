// Limits follow the handler, not the spelling (issue 24): the whole route table mounted by the
// shared HTTP app, the throttle as `beforeHandler`, and fast-check drawing the spellings the router
// serves (case, `/api` prefixes, `/preview` for aliased families, a trailing slash, any parameter
// text). Every category has its own bucket of a distinct capacity, so X-RateLimit-Limit names the
// category a request was counted in; a plan's endpoint throttle has the smallest capacity, so it
// names the requests its glob caught.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ROUTES, hasPreviewAlias, routesOf, type RouteId, type Side } from '@llm/contracts';
import { createHttpApp, createReadiness, listen, type Handlers, type RunningServer } from '@llm/http';
import { createLogger } from '@llm/logging';
import type { PlanCatalog } from '@llm/access';
import { throttleMiddleware, type ThrottleCategory } from '../src/index.ts';

const log = createLogger({ name: 'served-route-test', level: 'silent' });

// Written out from the reference's category list (accounts §2.2), not computed by the code under test.
const EXPECTED: Partial<Record<RouteId, ThrottleCategory>> = {
  'otlp.traces.export': 'tracing_fast',
  'tracing.spans.query': 'tracing_slow',
  'tracing.sessions.query': 'tracing_slow',
  'tracing.users.query': 'tracing_slow',
  'tracing.analytics.query': 'tracing_slow',
  'tracing.spans.analytics': 'tracing_slow',
  'queries.revisions.retrieve': 'core_fast',
  // The same `POST */retrieve` glob: every artifact entity's retrieve (reference evaluations §1.3).
  'testsets.revisions.retrieve': 'core_fast',
  'applications.revisions.retrieve': 'core_fast',
  'evaluators.revisions.retrieve': 'core_fast',
  'workflows.revisions.retrieve': 'core_fast',
  'environments.revisions.retrieve': 'core_fast',
  // Ours, not the reference's: an export reads like a query (docs/decisions.md).
  'spans.export': 'tracing_slow',
  'traces.export': 'tracing_slow',
};
const CATEGORIES: ThrottleCategory[] = ['standard', 'core_fast', 'core_slow', 'tracing_fast', 'tracing_slow', 'services_fast', 'services_slow', 'ai_services'];
const capacityOf = (c: ThrottleCategory): number => 100_000 + CATEGORIES.indexOf(c);
const ENDPOINT_CAPACITY = 7;
const plans: PlanCatalog = {
  p: {
    throttles: [
      ...CATEGORIES.map((c) => ({ bucket: { capacity: capacityOf(c), rate: capacityOf(c) }, mode: 'include' as const, categories: [c] })),
      { bucket: { capacity: ENDPOINT_CAPACITY, rate: ENDPOINT_CAPACITY }, mode: 'include' as const, endpoints: [['ANY', '/simple/*/query'], ['GET', '/secrets/*']] as Array<[string, string]> },
    ],
  },
} as unknown as PlanCatalog;
/** The endpoint globs above, on the route's declared path with the parameters the handler saw (case-insensitive, like the router). */
function caughtByEndpoint(id: RouteId, params: Record<string, string>): boolean {
  const declared = ROUTES[id].path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  return /^\/simple\/.*\/query$/i.test(declared) || (ROUTES[id].method === 'GET' && /^\/secrets\/.*$/i.test(declared));
}

let orgs = 0;
/** Stand-in for authentication: a fresh organization per request, so no bucket ever runs dry. */
const fakeAuth: RequestHandler = (req: Request, _res: Response, next: NextFunction) => {
  req.scope = { organizationId: `org-${orgs++}`, projectId: 'p', workspaceId: 'w', userId: 'u', apiKeyId: '' };
  next();
};
const served = (id: RouteId): RequestHandler => (req, res) => { res.json({ route: id, params: req.params }); };

let server: RunningServer;
let base: string;
beforeAll(async () => {
  const sides: Side[] = ['command', 'query', 'projector'];
  const throttle = throttleMiddleware({ plans, planOf: () => Promise.resolve('p'), freePlan: 'p' });
  // The throttle as the services mount it: right before each route's final handler.
  const withThrottle = createHttpApp({ log, readiness: createReadiness(), jsonLimitBytes: 1024, beforeHandler: throttle }, sides.map((side) => ({
    side, handlers: Object.fromEntries(routesOf(side).map((id) => [id, [fakeAuth, served(id)]])) as Handlers,
  })));
  server = await listen(withThrottle, 0, '127.0.0.1');
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => { await server?.close(0); });

/** Each letter of a literal segment in either case. */
const anyCase = (s: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((up) => [...s].map((ch, i) => (up[i] ? ch.toUpperCase() : ch.toLowerCase())).join(''));

const paramText = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constantFrom('retrieve', 'query', 'a/b', 'QUERY', '...', 'x y', '\u00e9', '%', 'spans'),
).filter((s) => s !== '.' && s !== '..'); // URL parsers resolve a dot segment away, even encoded


/** A spelling the router serves for a route: its segments in any case, its parameters any text. */
const spelling = (id: RouteId): fc.Arbitrary<string> => {
  const segments = ROUTES[id].path.split('/').slice(1);
  const parts = segments.map((seg) => (seg.startsWith(':') ? paramText.map(encodeURIComponent) : anyCase(seg)));
  return fc.record({
    parts: fc.tuple(...parts),
    api: fc.nat({ max: 2 }),
    preview: hasPreviewAlias(ROUTES[id]) ? fc.option(anyCase('preview'), { nil: undefined }) : fc.constant(undefined),
    slash: fc.boolean(),
    query: fc.option(fc.constantFrom('?x=1', '?limit=1e308', '?a=/tracing/spans/query'), { nil: undefined }),
  }).map(({ parts: ps, api, preview, slash, query }) =>
    `${'/api'.repeat(api)}${preview ? `/${preview}` : ''}/${ps.join('/')}${slash ? '/' : ''}${query ?? ''}`);
};

const request = fc.constantFrom(...(Object.keys(ROUTES) as RouteId[])).chain((id) => fc.record({ id: fc.constant(id), path: spelling(id) }));

async function send(id: RouteId, path: string): Promise<{ status: number; route: unknown; params: Record<string, string>; limit: string | null }> {
  const method = ROUTES[id].method;
  const r = await fetch(`${base}${path}`, { method, ...(method === 'GET' || method === 'DELETE' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }) });
  const body = await r.json() as { route?: unknown; params?: Record<string, string> };
  return { status: r.status, route: body.route, params: body.params ?? {}, limit: r.headers.get('x-ratelimit-limit') };
}

describe('throttle category of every spelling the router serves', () => {
  it('when fast-check spells any route of the table in any case, under /api, /preview or with a trailing slash, then it is counted in its handler\'s category (and a plan\'s endpoint glob sees the same path)', async () => {
    await fc.assert(fc.asyncProperty(request, async ({ id, path }) => {
      const got = await send(id, path);
      // Two routes can share a spelling (a parameter equal to a sibling's literal): the router's pick decides.
      expect(got.status, path).toBe(200);
      const route = got.route as RouteId;
      const want = caughtByEndpoint(route, got.params) ? ENDPOINT_CAPACITY : capacityOf(EXPECTED[route] ?? 'standard');
      expect({ path, route, limit: got.limit }).toEqual({ path, route, limit: String(want) });
    }), { numRuns: 600 });
  }, 60_000);

  it('given the issue\'s examples, then each is counted where its handler is', async () => {
    const slow = String(capacityOf('tracing_slow'));
    for (const path of ['/TRACING/spans/query', '/TRACING/spans/analytics', '/Preview/Tracing/Analytics/Query/', '/api/api/tracing/SESSIONS/query']) {
      expect((await send('tracing.spans.query', path)).limit, path).toBe(slow);
    }
    expect((await send('simple.queries.query', '/PREVIEW/Simple/Queries/Query/')).limit).toBe(String(ENDPOINT_CAPACITY));
    expect((await send('secrets.fetch', '/SECRETS/a%2Fb')).limit).toBe(String(ENDPOINT_CAPACITY));
    expect((await send('otlp.traces.export', '/OTLP/V1/Traces')).limit).toBe(String(capacityOf('tracing_fast')));
    expect((await send('queries.revisions.retrieve', '/PREVIEW/queries/Revisions/RETRIEVE/')).limit).toBe(String(capacityOf('core_fast')));
    // A parameter that spells a literal is still a parameter: `/admin/replay/retrieve` is not core_fast.
    const replay = await send('admin.replay', '/admin/replay/retrieve');
    expect(replay).toMatchObject({ status: 200, route: 'admin.replay', limit: String(capacityOf('standard')) });
  });
});
