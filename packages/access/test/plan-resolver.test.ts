// The plan resolver: an organization's own record, else the deployment's default; cached for ttlMs,
// dropped at once by invalidate; a failed read is not cached.
import { describe, expect, it } from 'vitest';
import { createPlanResolver, entitlement, DEFAULT_PLANS } from '../src/index.ts';

describe('plan resolver', () => {
  it('when an organization has no record, then it is on the default plan; with one, on its own', async () => {
    const r = createPlanResolver({ read: async (id) => (id === 'a' ? { plan: 'cloud_v0_hobby', active: true, anchor: 9 } : undefined), defaultPlan: 'self_hosted_enterprise', ttlMs: 1000 });
    expect(await r.planOf('a')).toEqual({ plan: 'cloud_v0_hobby', active: true, anchor: 9 });
    expect(await r.planOf('b')).toEqual({ plan: 'self_hosted_enterprise', active: true, anchor: 1 });
  });

  it('given a cached plan, a change is seen after ttlMs, or at once after invalidate', async () => {
    let now = 0;
    let plan = 'cloud_v0_hobby';
    let reads = 0;
    const r = createPlanResolver({ read: async () => { reads++; return { plan, active: true, anchor: 1 }; }, defaultPlan: 'x', ttlMs: 1000, now: () => now });
    expect((await r.planOf('A')).plan).toBe('cloud_v0_hobby');
    plan = 'cloud_v0_business';
    now = 999;
    expect((await r.planOf('a')).plan).toBe('cloud_v0_hobby');
    now = 1000;
    expect((await r.planOf('a')).plan).toBe('cloud_v0_business');
    plan = 'cloud_v0_pro';
    r.invalidate('A');
    expect((await r.planOf('a')).plan).toBe('cloud_v0_pro');
    expect(reads).toBe(3);
  });

  it('when a read fails, then the next call reads again', async () => {
    let fail = true;
    const r = createPlanResolver({ read: async () => { if (fail) throw new Error('down'); return undefined; }, defaultPlan: 'd', ttlMs: 60_000 });
    await expect(r.planOf('a')).rejects.toThrow('down');
    fail = false;
    expect((await r.planOf('a')).plan).toBe('d');
  });

  it('entitlement reads the organization\'s own plan', async () => {
    const r = createPlanResolver({ read: async (id) => ({ plan: id === 'biz' ? 'cloud_v0_business' : 'cloud_v0_hobby', active: true, anchor: 1 }), defaultPlan: 'd', ttlMs: 0 });
    const sso = entitlement({ plans: DEFAULT_PLANS }, r, 'sso');
    expect(await sso('biz')).toBe(true);
    expect(await sso('hob')).toBe(false);
  });
});
