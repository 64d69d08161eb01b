// The plan catalog: the reference's defaults, a configured replacement validated strictly, and the
// serialised shape of GET /access/plans.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, PlanCatalogSchema, loadAccessCatalog, planHasFlag, serializeCatalog } from '../src/index.ts';

describe('plan catalog', () => {
  it('given no configuration, then the reference plans apply and self_hosted_enterprise is the default with every flag', () => {
    const r = loadAccessCatalog({ ACCESS_PLAN_CACHE_MS: 2000, QUOTA_REFUSAL_CACHE_MS: 1000, THROTTLE_REPLICAS: 1, ACCESS_ENFORCEMENT: true, ACCESS_DEFAULT_PLAN: 'self_hosted_enterprise' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.keys(r.config.plans).sort()).toEqual(['cloud_v0_agenta_ai', 'cloud_v0_business', 'cloud_v0_hobby', 'cloud_v0_pro', 'self_hosted_enterprise']);
    expect(planHasFlag(r.config, 'self_hosted_enterprise', 'domains')).toBe(true);
    expect(planHasFlag(r.config, 'cloud_v0_hobby', 'sso')).toBe(false);
    expect(planHasFlag(r.config, 'no_such_plan', 'sso')).toBe(false);
    expect(PlanCatalogSchema.safeParse(DEFAULT_PLANS).success).toBe(true);
  });

  it('when serialised, then quotas and throttles carry every field (null when unset) and undefined trackers are absent', () => {
    const r = loadAccessCatalog({ ACCESS_PLAN_CACHE_MS: 2000, QUOTA_REFUSAL_CACHE_MS: 1000, THROTTLE_REPLICAS: 1, ACCESS_ENFORCEMENT: true, ACCESS_DEFAULT_PLAN: 'self_hosted_enterprise' });
    if (!r.ok) throw new Error('catalog');
    const out = serializeCatalog(r.config) as Record<string, Record<string, any>>;
    expect(out.cloud_v0_hobby!.counters.traces_ingested).toEqual({ free: 5000, limit: 5000, strict: false, retention: 10080, scope: null, period: 'monthly' });
    expect(out.cloud_v0_hobby!.gauges.users).toEqual({ free: 2, limit: 2, strict: true, retention: null, scope: null, period: null });
    expect(out.cloud_v0_hobby!.throttles[2]).toEqual({ bucket: { capacity: 120, rate: 1, algorithm: null }, mode: 'include', categories: ['core_slow', 'tracing_slow', 'services_slow'], endpoints: null });
    expect(out.self_hosted_enterprise!.throttles).toBeUndefined();
  });

  it('when ACCESS_PLANS replaces the catalog, then it is used; unknown keys, bad JSON and a missing default plan are startup errors', () => {
    const custom = JSON.stringify({ team: { flags: { sso: true }, counters: { traces_ingested: { limit: 10, strict: true, period: 'daily' } } } });
    const ok = loadAccessCatalog({ ACCESS_PLAN_CACHE_MS: 2000, QUOTA_REFUSAL_CACHE_MS: 1000, THROTTLE_REPLICAS: 1, ACCESS_ENFORCEMENT: true, ACCESS_PLANS: custom, ACCESS_DEFAULT_PLAN: 'team' });
    expect(ok.ok && planHasFlag(ok.config, 'team', 'sso')).toBe(true);
    const unknownFlag = loadAccessCatalog({ ACCESS_PLAN_CACHE_MS: 2000, QUOTA_REFUSAL_CACHE_MS: 1000, THROTTLE_REPLICAS: 1, ACCESS_ENFORCEMENT: true, ACCESS_PLANS: JSON.stringify({ team: { flags: { teleport: true } } }), ACCESS_DEFAULT_PLAN: 'team' });
    expect(unknownFlag.ok).toBe(false);
    if (!unknownFlag.ok) expect(unknownFlag.problems.join()).toMatch(/ACCESS_PLANS\.team\.flags/);
    expect(loadAccessCatalog({ ACCESS_PLAN_CACHE_MS: 2000, QUOTA_REFUSAL_CACHE_MS: 1000, THROTTLE_REPLICAS: 1, ACCESS_ENFORCEMENT: true, ACCESS_PLANS: '{not json', ACCESS_DEFAULT_PLAN: 'team' }).ok).toBe(false);
    const missing = loadAccessCatalog({ ACCESS_PLAN_CACHE_MS: 2000, QUOTA_REFUSAL_CACHE_MS: 1000, THROTTLE_REPLICAS: 1, ACCESS_ENFORCEMENT: true, ACCESS_PLANS: custom, ACCESS_DEFAULT_PLAN: 'self_hosted_enterprise' });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.problems[0]).toMatch(/ACCESS_DEFAULT_PLAN/);
  });
});
