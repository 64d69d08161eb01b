// Which throttles apply to a plan: the plan's own, the free plan's as a fallback, none when there is
// no free plan; the per-replica share; include/exclude and endpoint matching.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, type PlanCatalog, type Throttle } from '@llm/access';
import { bucketMatches, bucketSpecOf, perReplica, planThrottles } from '../src/index.ts';

const limits = (plans: PlanCatalog, plan: string, replicas = 1) =>
  planThrottles(plans, { replicas })(plan)?.buckets.map((b) => [b.categories?.join('+'), b.capacity, b.ratePerMinute]);

describe('plan throttles', () => {
  it('given the hobby plan, then its four throttles apply with the reference numbers', () => {
    const t = planThrottles(DEFAULT_PLANS)('cloud_v0_hobby');
    expect(t?.plan).toBe('cloud_v0_hobby');
    expect(limits(DEFAULT_PLANS, 'cloud_v0_hobby')).toEqual([
      ['standard', 480, 480],
      ['core_fast+tracing_fast+services_fast', 1200, 1200],
      ['core_slow+tracing_slow+services_slow', 120, 1],
      ['ai_services', 10, 30],
    ]);
  });

  it('given self_hosted_enterprise (no throttles), then the free plan\'s throttles apply', () => {
    const t = planThrottles(DEFAULT_PLANS)('self_hosted_enterprise');
    expect(t?.plan).toBe('cloud_v0_hobby');
    expect(t?.buckets).toHaveLength(4);
    expect(planThrottles(DEFAULT_PLANS)('cloud_v0_agenta_ai')?.plan).toBe('cloud_v0_hobby');
  });

  it('given an unknown plan, then the free plan\'s throttles apply; a configured free plan is honoured', () => {
    expect(planThrottles(DEFAULT_PLANS)('cloud_v0_humanity_labs')?.plan).toBe('cloud_v0_hobby');
    expect(planThrottles(DEFAULT_PLANS)('__proto__')?.plan).toBe('cloud_v0_hobby');
    expect(planThrottles(DEFAULT_PLANS, { freePlan: 'cloud_v0_pro' })('nope')?.plan).toBe('cloud_v0_pro');
  });

  it('given a catalog without the free plan, or a free plan without throttles, then plans without throttles are not throttled', () => {
    const { cloud_v0_hobby: _hobby, ...noFree } = DEFAULT_PLANS;
    expect(planThrottles(noFree)('self_hosted_enterprise')).toBeUndefined();
    expect(planThrottles(noFree)('unknown')).toBeUndefined();
    expect(planThrottles(noFree)('cloud_v0_pro')?.plan).toBe('cloud_v0_pro');
    expect(planThrottles(DEFAULT_PLANS, { freePlan: 'self_hosted_enterprise' })('unknown')).toBeUndefined();
  });

  it('given 3 replicas, then each enforces a third of every capacity and rate, rounded up and never 0', () => {
    expect(limits(DEFAULT_PLANS, 'cloud_v0_hobby', 3)).toEqual([
      ['standard', 160, 160],
      ['core_fast+tracing_fast+services_fast', 400, 400],
      ['core_slow+tracing_slow+services_slow', 40, 1],
      ['ai_services', 4, 10],
    ]);
    expect(perReplica(10, 4)).toBe(3);
    expect(perReplica(1, 16)).toBe(1);
    expect(perReplica(480, 1)).toBe(480);
    expect(() => planThrottles(DEFAULT_PLANS, { replicas: 0 })).toThrow(/replicas/);
    expect(() => planThrottles(DEFAULT_PLANS, { replicas: 1.5 })).toThrow(/replicas/);
  });

  it('given a throttle with only a capacity or only a rate, then the other takes the same number; with neither it is ignored', () => {
    const t = (bucket: Throttle['bucket']): Throttle => ({ bucket, mode: 'include' });
    expect(bucketSpecOf(t({ capacity: 5 }), 1)).toMatchObject({ capacity: 5, ratePerMinute: 5, algorithm: 'gcra' });
    expect(bucketSpecOf(t({ rate: 7, algorithm: 'tbra' }), 1)).toMatchObject({ capacity: 7, ratePerMinute: 7, algorithm: 'tbra' });
    expect(bucketSpecOf(t({}), 1)).toBeUndefined();
  });

  it('given the same throttle twice in a plan, then it is one bucket', () => {
    const th: Throttle = { bucket: { capacity: 5, rate: 5 }, mode: 'include', categories: ['standard'] };
    expect(planThrottles({ p: { throttles: [th, { ...th }] } })('p')?.buckets).toHaveLength(1);
  });
});

describe('bucket matching', () => {
  const spec = (t: Omit<Throttle, 'bucket'>) => bucketSpecOf({ bucket: { capacity: 1, rate: 1 }, ...t }, 1)!;

  it('given include mode with categories, then only those categories count', () => {
    const b = spec({ mode: 'include', categories: ['core_fast', 'tracing_fast'] });
    expect(bucketMatches(b, 'tracing_fast', 'POST', '/otlp/v1/traces')).toBe(true);
    expect(bucketMatches(b, 'standard', 'GET', '/x')).toBe(false);
  });

  it('given exclude mode, then every category but the listed ones counts', () => {
    const b = spec({ mode: 'exclude', categories: ['tracing_fast'] });
    expect(bucketMatches(b, 'tracing_fast', 'POST', '/otlp/v1/traces')).toBe(false);
    expect(bucketMatches(b, 'standard', 'GET', '/x')).toBe(true);
    expect(bucketMatches(b, 'ai_services', 'POST', '/ai/services/tools/call')).toBe(true);
  });

  it('given endpoint throttles, then method and glob decide (and exclude inverts them)', () => {
    const inc = spec({ mode: 'include', endpoints: [['POST', '/secrets/*'], ['ANY', '/webhooks']] });
    expect(bucketMatches(inc, 'standard', 'POST', '/secrets/a/b')).toBe(true);
    expect(bucketMatches(inc, 'standard', 'GET', '/secrets/a')).toBe(false);
    expect(bucketMatches(inc, 'standard', 'DELETE', '/webhooks/')).toBe(true);
    const exc = spec({ mode: 'exclude', endpoints: [['GET', '/health']] });
    expect(bucketMatches(exc, 'standard', 'GET', '/health')).toBe(false);
    expect(bucketMatches(exc, 'standard', 'POST', '/health')).toBe(true);
  });

  it('given a throttle with neither categories nor endpoints, then every request counts, whatever the mode', () => {
    expect(bucketMatches(spec({ mode: 'include' }), 'ai_services', 'POST', '/ai/services/tools/call')).toBe(true);
    expect(bucketMatches(spec({ mode: 'exclude' }), 'standard', 'GET', '/x')).toBe(true);
  });

  it('given include and exclude throttles over the same categories, then they are distinct buckets', () => {
    expect(spec({ mode: 'include', categories: ['standard'] }).id).not.toBe(spec({ mode: 'exclude', categories: ['standard'] }).id);
  });
});
