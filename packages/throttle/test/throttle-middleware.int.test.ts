// The middleware in real express apps on a loopback port, under concurrent requests: a bare app
// (auth stand-in → throttle → handler), and the shared HTTP app with the throttle as `beforeHandler`
// (after each route's authentication, with the /api prefix and trailing slashes of real clients).
import { afterEach, describe, expect, it } from 'vitest';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { routesOf, type RouteId } from '@llm/contracts';
import { createHttpApp, createReadiness, listen, requestContext, type Handlers, type RunningServer } from '@llm/http';
import { createLogger } from '@llm/logging';
import { DEFAULT_PLANS } from '@llm/access';
import { throttleMiddleware } from '../src/index.ts';

const log = createLogger({ name: 'throttle-test', level: 'silent' });
const T0 = 1_767_225_600_000;

let server: RunningServer | undefined;
afterEach(async () => { await server?.close(0); server = undefined; });

/** Stand-in for authentication: the organization comes from a header; none means no scope. */
const fakeAuth: RequestHandler = (req: Request, _res: Response, next: NextFunction) => {
  const org = req.header('x-org');
  if (org) req.scope = { organizationId: org, projectId: 'p', workspaceId: 'w', userId: 'u', apiKeyId: '' };
  next();
};

const ok: RequestHandler = (_req, res) => { res.json({ ok: true }); };

async function fire(n: number, url: string, init: RequestInit): Promise<Array<{ status: number; headers: Headers; body: unknown }>> {
  return Promise.all(Array.from({ length: n }, async () => {
    const r = await fetch(url, init);
    return { status: r.status, headers: r.headers, body: await r.json() };
  }));
}

describe('throttle middleware over HTTP', () => {
  it('when 600 requests of one hobby organization arrive in parallel, then exactly 480 pass and 120 get the 429', async () => {
    const app = express();
    app.use(requestContext(log));
    let planLookups = 0;
    const throttle = throttleMiddleware({
      plans: DEFAULT_PLANS,
      planOf: async () => { planLookups++; await new Promise((r) => setImmediate(r)); return 'cloud_v0_hobby'; },
      now: () => T0, // frozen: no refill while the 600 requests are in flight
    });
    app.get('/secrets', fakeAuth, throttle, ok);
    server = await listen(app, 0, '127.0.0.1');
    const answers = await fire(600, `http://127.0.0.1:${server.port}/secrets`, { headers: { 'x-org': 'org-a' } });
    const passed = answers.filter((a) => a.status === 200);
    const denied = answers.filter((a) => a.status === 429);
    expect(passed).toHaveLength(480);
    expect(denied).toHaveLength(120);
    expect(planLookups).toBe(600);
    expect(new Set(passed.map((a) => a.headers.get('x-ratelimit-remaining'))).size).toBe(480);
    expect(denied[0]!.body).toEqual({ detail: 'Rate limit exceeded. Please retry after 1 seconds.' });
    expect(denied[0]!.headers.get('retry-after')).toBe('2');
    expect(denied[0]!.headers.get('x-ratelimit-limit')).toBe('480');
    expect(denied[0]!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(denied[0]!.headers.get('content-type')).toMatch(/^application\/json/);
    // Another organization is not affected; a request without an organization is not throttled.
    expect((await fetch(`http://127.0.0.1:${server.port}/secrets`, { headers: { 'x-org': 'org-b' } })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${server.port}/secrets`)).status).toBe(200);
  });

  it('given createHttpApp with the throttle as beforeHandler, then it runs after each route\'s authentication, on /api and trailing-slash paths', async () => {
    const handlers: Handlers = Object.fromEntries(routesOf('query').map((id: RouteId) => [id, [fakeAuth, ok]]));
    const throttle = throttleMiddleware({ plans: DEFAULT_PLANS, planOf: () => Promise.resolve('self_hosted_enterprise'), now: () => T0 });
    const app = createHttpApp({ log, readiness: createReadiness(), jsonLimitBytes: 1024, beforeHandler: throttle }, [{ side: 'query', handlers }]);
    server = await listen(app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${server.port}`;
    // tracing_slow: 120 at once for the hobby numbers self_hosted_enterprise falls back to.
    const slow = await fire(130, `${base}/api/tracing/spans/analytics/`, { method: 'POST', headers: { 'x-org': 'org-c', 'content-type': 'application/json' }, body: '{}' });
    expect(slow.filter((a) => a.status === 200)).toHaveLength(120);
    const denied = slow.find((a) => a.status === 429)!;
    expect(denied.body).toEqual({ detail: 'Rate limit exceeded. Please retry after 60 seconds.' });
    expect(denied.headers.get('retry-after')).toBe('61');
    // Standard requests of the same organization draw on another bucket.
    const plans = await fetch(`${base}/api/access/plans`, { headers: { 'x-org': 'org-c' } });
    expect(plans.status).toBe(200);
    expect(plans.headers.get('x-ratelimit-limit')).toBe('480');
    expect(plans.headers.get('x-ratelimit-remaining')).toBe('479');
    // The credential-free health check carries no organization: it is never counted.
    expect((await fetch(`${base}/health`)).headers.get('x-ratelimit-limit')).toBeNull();
  });
});
