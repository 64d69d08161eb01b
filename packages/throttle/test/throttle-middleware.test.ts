// The middleware with stand-in requests and responses and a frozen clock: 429 body and headers,
// allowed-response headers, the free-plan fallback, skips, fail-open, per-replica share, and that a
// denied request takes no token from the other buckets it matched.
import { describe, expect, it, vi } from 'vitest';
import type { NextFunction, Request, Response } from 'express';
import { DEFAULT_PLANS, type PlanCatalog } from '@llm/access';
import { decodeRpcStatus } from '@llm/otlp';
import { BucketStore, throttleMiddleware, type ThrottleOptions } from '../src/index.ts';

const T0 = 1_767_225_600_000;

interface Answer { status: number; headers: Record<string, string>; body: unknown; passed: boolean; type?: string }

function harness(opts: Partial<ThrottleOptions> & { plan?: string }) {
  let clock = T0;
  const warn = vi.fn();
  const mw = throttleMiddleware({
    plans: DEFAULT_PLANS,
    planOf: () => Promise.resolve(opts.plan ?? 'cloud_v0_hobby'),
    now: () => clock,
    ...opts,
  });
  async function send(method: string, path: string, org: string | null = 'org-1'): Promise<Answer> {
    const answer: Answer = { status: 200, headers: {}, body: undefined, passed: false };
    const req = { method, path, scope: org === null ? undefined : { organizationId: org, projectId: 'p', workspaceId: 'w', userId: 'u', apiKeyId: '' }, log: { warn } };
    const res = {
      status(s: number) { answer.status = s; return res; },
      set(h: Record<string, string>) { Object.assign(answer.headers, h); return res; },
      json(b: unknown) { answer.body = b; return res; },
      type(t: string) { answer.type = t; return res; },
      send(b: unknown) { answer.body = b; return res; },
    };
    const next: NextFunction = () => { answer.passed = true; };
    await mw(req as unknown as Request, res as unknown as Response, next);
    return answer;
  }
  async function sendMany(n: number, method: string, path: string, org?: string | null): Promise<Answer[]> {
    const out: Answer[] = [];
    for (let i = 0; i < n; i++) out.push(await send(method, path, org));
    return out;
  }
  return { send, sendMany, warn, advance: (ms: number) => { clock += ms; } };
}

describe('throttle middleware', () => {
  it('when a hobby org sends 481 standard requests at once, then 480 pass and the 481st is 429 "retry after 1 seconds" with Retry-After 2', async () => {
    const h = harness({});
    const answers = await h.sendMany(481, 'GET', '/secrets');
    expect(answers.filter((a) => a.passed)).toHaveLength(480);
    const last = answers[480]!;
    expect(last.passed).toBe(false);
    expect(last.status).toBe(429);
    expect(last.body).toEqual({ detail: 'Rate limit exceeded. Please retry after 1 seconds.' });
    expect(last.headers).toEqual({ 'X-RateLimit-Limit': '480', 'X-RateLimit-Remaining': '0', 'Retry-After': '2' });
    // One emission interval (125 ms) later, one more passes.
    h.advance(125);
    expect((await h.send('GET', '/secrets')).passed).toBe(true);
    expect((await h.send('GET', '/secrets')).status).toBe(429);
  });

  it('when allowed, then the response carries the limit and the remaining tokens of the bucket', async () => {
    const h = harness({});
    const first = await h.send('POST', '/ai/services/tools/call');
    expect(first.headers).toEqual({ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '9' });
  });

  it('when the ai_services bucket (10, 30/min) is spent, then the 11th waits 2 s: "retry after 2 seconds", Retry-After 3', async () => {
    const h = harness({});
    const answers = await h.sendMany(11, 'POST', '/ai/services/tools/call');
    expect(answers[10]!.body).toEqual({ detail: 'Rate limit exceeded. Please retry after 2 seconds.' });
    expect(answers[10]!.headers['Retry-After']).toBe('3');
    expect(answers[10]!.headers['X-RateLimit-Limit']).toBe('10');
  });

  it('when the slow bucket (120, 1/min) is spent, then the 121st waits 60 s, and a second later 59 s', async () => {
    const h = harness({});
    const answers = await h.sendMany(121, 'POST', '/tracing/spans/query');
    expect(answers[120]!.body).toEqual({ detail: 'Rate limit exceeded. Please retry after 60 seconds.' });
    expect(answers[120]!.headers['Retry-After']).toBe('61');
    h.advance(1_000);
    expect((await h.send('POST', '/tracing/spans/analytics/')).headers['Retry-After']).toBe('60');
  });

  it('given grouped categories, then core_fast, tracing_fast and services_fast each get a bucket of their own (reference §2.3)', async () => {
    const h = harness({});
    const otlp = await h.sendMany(1201, 'POST', '/otlp/v1/traces');
    expect(otlp.filter((a) => a.passed)).toHaveLength(1200);
    // The same group's other categories still have their whole capacity.
    const checks = await h.sendMany(1200, 'GET', '/access/permissions/check');
    expect(checks.every((a) => a.passed)).toBe(true);
    expect((await h.send('POST', '/variants/configs/fetch')).passed).toBe(true);
    // Another organization has its own buckets; other categories of the same one too.
    expect((await h.send('POST', '/otlp/v1/traces', 'org-2')).passed).toBe(true);
    expect((await h.send('GET', '/secrets')).passed).toBe(true);
  });

  it('given an OTLP export over its throttle, then the 429 body is a protobuf google.rpc.Status', async () => {
    const h = harness({});
    const answers = await h.sendMany(1201, 'POST', '/otlp/v1/traces');
    const denied = answers[1200]!;
    expect(denied.status).toBe(429);
    expect(denied.type).toBe('application/x-protobuf');
    expect(decodeRpcStatus(new Uint8Array(denied.body as Buffer))).toMatchObject({ code: 8, message: 'Rate limit exceeded. Please retry after 1 seconds.' });
  });

  it('given self_hosted_enterprise or an unknown plan, then the hobby numbers apply', async () => {
    for (const plan of ['self_hosted_enterprise', 'cloud_v0_something_old']) {
      const h = harness({ plan });
      const answers = await h.sendMany(481, 'GET', '/secrets');
      expect(answers.filter((a) => a.passed)).toHaveLength(480);
      expect(answers[0]!.headers['X-RateLimit-Limit']).toBe('480');
    }
  });

  it('given the pro plan, then its own numbers apply', async () => {
    const h = harness({ plan: 'cloud_v0_pro' });
    const answers = await h.sendMany(1441, 'GET', '/secrets');
    expect(answers.filter((a) => a.passed)).toHaveLength(1440);
  });

  it('given a catalog without the free plan, then an organization on a plan without throttles is never throttled', async () => {
    const { cloud_v0_hobby: _hobby, ...noFree } = DEFAULT_PLANS;
    const h = harness({ plans: noFree, plan: 'self_hosted_enterprise' });
    const answers = await h.sendMany(2_000, 'GET', '/secrets');
    expect(answers.every((a) => a.passed && Object.keys(a.headers).length === 0)).toBe(true);
  });

  it('given no organization in scope (admin, public routes), then the request passes untouched', async () => {
    const planOf = vi.fn(() => Promise.resolve('cloud_v0_hobby'));
    const h = harness({ planOf });
    const answers = await h.sendMany(600, 'GET', '/admin/replay/spans', null);
    expect(answers.every((a) => a.passed && Object.keys(a.headers).length === 0)).toBe(true);
    expect(planOf).not.toHaveBeenCalled();
  });

  it('when planOf throws, then the request passes (fail open) and a warning is logged', async () => {
    const h = harness({ planOf: () => Promise.reject(new Error('pg down')) });
    const answers = await h.sendMany(600, 'GET', '/secrets');
    expect(answers.every((a) => a.passed)).toBe(true);
    expect(h.warn).toHaveBeenCalledTimes(600);
    expect(h.warn.mock.calls[0]![0]).toMatchObject({ organization_id: 'org-1' });
  });

  it('given a request denied by one bucket, then it takes no token from the other buckets it matched', async () => {
    const plans: PlanCatalog = {
      cloud_v0_hobby: {
        throttles: [
          { bucket: { capacity: 10, rate: 10 }, mode: 'include' }, // everything
          { bucket: { capacity: 2, rate: 1 }, mode: 'include', categories: ['ai_services'] },
        ],
      },
    };
    const h = harness({ plans });
    const ai = await h.sendMany(5, 'POST', '/ai/services/tools/call');
    expect(ai.map((a) => a.status)).toEqual([200, 200, 429, 429, 429]);
    expect(ai[2]!.headers['X-RateLimit-Limit']).toBe('2');
    // The shared bucket lost 2 tokens, not 5: 8 more pass.
    const rest = await h.sendMany(9, 'GET', '/secrets');
    expect(rest.filter((a) => a.passed)).toHaveLength(8);
    expect(rest[0]!.headers).toEqual({ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '7' });
  });

  it('given several matched buckets, then allowed responses report the one with the least remaining', async () => {
    const plans: PlanCatalog = {
      cloud_v0_hobby: {
        throttles: [
          { bucket: { capacity: 100, rate: 100 }, mode: 'exclude', categories: ['tracing_fast'] },
          { bucket: { capacity: 3, rate: 60 }, mode: 'include', endpoints: [['POST', '/secrets/*']] },
        ],
      },
    };
    const h = harness({ plans });
    expect((await h.send('POST', '/secrets/x')).headers).toEqual({ 'X-RateLimit-Limit': '3', 'X-RateLimit-Remaining': '2' });
    expect((await h.send('GET', '/secrets/x')).headers).toEqual({ 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '98' });
    // Excluded from the first throttle, matched by neither: not throttled at all.
    expect((await h.send('POST', '/otlp/v1/traces')).headers).toEqual({});
  });

  it('given 2 replicas, then each admits half the hobby burst and reports the per-replica limit', async () => {
    const h = harness({ replicas: 2 });
    const answers = await h.sendMany(241, 'GET', '/secrets');
    expect(answers.filter((a) => a.passed)).toHaveLength(240);
    expect(answers[0]!.headers).toEqual({ 'X-RateLimit-Limit': '240', 'X-RateLimit-Remaining': '239' });
    expect(answers[240]!.headers['X-RateLimit-Limit']).toBe('240');
  });

  it('when 200,000 distinct organizations send requests, then the bucket map stays within its bound', async () => {
    const store = new BucketStore();
    const h = harness({ store });
    for (let i = 0; i < 200_000; i++) await h.send('GET', '/secrets', `org-${i}`);
    expect(store.size).toBeLessThanOrEqual(100_000);
  });
});
