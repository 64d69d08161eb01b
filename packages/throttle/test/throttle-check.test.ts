// The throttle's decision without express (what the OTLP/gRPC receiver calls): the same buckets as
// the middleware, so a request counts once whichever transport carried it.
import { describe, expect, it } from 'vitest';
import type { NextFunction, Request, Response } from 'express';
import { DEFAULT_PLANS } from '@llm/access';
import { routeCategory, declaredPath, throttleMiddleware } from '../src/index.ts';

const T0 = 1_767_225_600_000;
const OTLP = { method: 'POST', category: routeCategory('otlp.traces.export'), path: declaredPath('otlp.traces.export', {}) };

describe('throttle check', () => {
  it('when OTLP exports are checked outside express, then they draw on the bucket the middleware fills and are refused with Retry-After', async () => {
    const throttle = throttleMiddleware({ plans: DEFAULT_PLANS, planOf: () => Promise.resolve('cloud_v0_hobby'), now: () => T0 });
    // 600 through the middleware (as /otlp/v1/traces), 600 checked directly: the 1,200 of the tracing_fast bucket.
    let passed = 0;
    for (let i = 0; i < 600; i++) {
      const req = { method: 'POST', path: '/otlp/v1/traces', scope: { organizationId: 'org-1' } };
      const res = { set: () => res, status: () => res, json: () => res, type: () => res, send: () => res, locals: {} };
      await throttle(req as unknown as Request, res as unknown as Response, (() => { passed++; }) as NextFunction);
    }
    for (let i = 0; i < 600; i++) if ((await throttle.check('org-1', OTLP)).allowed) passed++;
    expect(passed).toBe(1200);
    const denied = await throttle.check('org-1', OTLP);
    expect(denied).toEqual({
      allowed: false, retryAfterMs: expect.any(Number) as number, detail: 'Rate limit exceeded. Please retry after 1 seconds.',
      headers: { 'X-RateLimit-Limit': '1200', 'X-RateLimit-Remaining': '0', 'Retry-After': '2' },
    });
    // Another organization has its own bucket.
    expect(await throttle.check('org-2', OTLP)).toEqual({ allowed: true, headers: { 'X-RateLimit-Limit': '1200', 'X-RateLimit-Remaining': '1199' } });
  });

  it('when the plan cannot be read, then the check admits the request and logs why', async () => {
    const warnings: string[] = [];
    const throttle = throttleMiddleware({ plans: DEFAULT_PLANS, planOf: () => Promise.reject(new Error('down')), now: () => T0 });
    expect(await throttle.check('org-1', OTLP, { warn: (_o, msg) => { warnings.push(msg); } })).toEqual({ allowed: true, headers: {} });
    expect(warnings).toEqual(['throttle: plan lookup failed, request allowed']);
  });
});
