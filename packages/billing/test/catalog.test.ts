// The catalog answers (GET /billing/catalog, /billing/plans, /billing/pricing) and the free, trial and
// signup plan resolution of reference accounts §2.2 and §11.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CATALOG, catalogAnswer, lineItemsFor, plansAnswer, pricingAnswer, resolveFreePlan, resolveSignupPlan, resolveTrial,
  utcDayOfMonth, type Pricing,
} from '../src/index.ts';

const PRICING: Pricing = {
  cloud_v0_pro: { free: false, slots: [{ name: 'base', price: 'price_pro', quantity: 1 }, { name: 'traces', price: 'price_traces' }] },
  cloud_v0_business: { free: false, trial: 30, slots: [{ name: 'base', price: 'price_biz', quantity: 1 }] },
};

describe('default catalog', () => {
  it('lists Hobby $0, Pro $29 and Business $299 with traces 10,000 free then $5 per 10,000, Enterprise without plan or price, Agenta custom', () => {
    const by = Object.fromEntries(DEFAULT_CATALOG.map((e) => [e.title, e]));
    expect(DEFAULT_CATALOG.map((e) => [e.title, e.plan, e.type])).toEqual([
      ['Hobby', 'cloud_v0_hobby', 'standard'],
      ['Pro', 'cloud_v0_pro', 'standard'],
      ['Business', 'cloud_v0_business', 'standard'],
      ['Enterprise', undefined, 'standard'],
      ['Agenta', 'cloud_v0_agenta_ai', 'custom'],
    ]);
    expect(by.Hobby!.price).toEqual({ base: { type: 'flat', currency: 'USD', amount: 0 } });
    const traces = { type: 'tiered', currency: 'USD', tiers: [{ limit: 10_000, amount: 0 }, { amount: 5, rate: 10_000 }] };
    expect(by.Pro!.price).toEqual({ base: { type: 'flat', currency: 'USD', amount: 29 }, traces });
    expect(by.Business!.price).toEqual({ base: { type: 'flat', currency: 'USD', amount: 299 }, traces });
    expect(by.Enterprise!.price).toBeUndefined();
    expect(by.Agenta!.price).toBeUndefined();
    for (const e of DEFAULT_CATALOG) expect(e.features.length).toBeGreaterThan(0);
  });
});

describe('catalog answers', () => {
  it('GET /billing/catalog replaces price by the plan pricing entry only where one exists', () => {
    const out = catalogAnswer({ catalog: DEFAULT_CATALOG, pricing: PRICING });
    const by = Object.fromEntries(out.map((e) => [e.title, e]));
    expect(by.Pro!.price).toEqual({ base: { price: 'price_pro', quantity: 1 }, traces: { price: 'price_traces' } });
    expect(by.Business!.price).toEqual({ trial: 30, base: { price: 'price_biz', quantity: 1 } });
    expect(by.Hobby!.price).toEqual(DEFAULT_CATALOG[0]!.price);
    expect(by.Enterprise!.price).toBeUndefined();
    expect(out.map((e) => e.title)).toEqual(DEFAULT_CATALOG.map((e) => e.title));
  });

  it('GET /billing/plans lists the standard entries plus the custom entry of the organization plan', () => {
    const catalog = DEFAULT_CATALOG;
    expect(plansAnswer({ catalog }, 'cloud_v0_pro').map((e) => e.title)).toEqual(['Hobby', 'Pro', 'Business', 'Enterprise']);
    expect(plansAnswer({ catalog }, 'cloud_v0_agenta_ai').map((e) => e.title)).toEqual(['Hobby', 'Pro', 'Business', 'Enterprise', 'Agenta']);
    expect(plansAnswer({ catalog }, null).map((e) => e.title)).toEqual(['Hobby', 'Pro', 'Business', 'Enterprise']);
  });

  it('GET /billing/pricing marks the resolved free plan and the trial plan, even without entries of their own', () => {
    expect(pricingAnswer({ pricing: {}, freePlan: 'cloud_v0_hobby', trial: null })).toEqual({ cloud_v0_hobby: { free: true } });
    expect(pricingAnswer({ pricing: PRICING, freePlan: 'cloud_v0_hobby', trial: { plan: 'cloud_v0_business', days: 30 } })).toEqual({
      cloud_v0_hobby: { free: true },
      cloud_v0_pro: { base: { price: 'price_pro', quantity: 1 }, traces: { price: 'price_traces' } },
      cloud_v0_business: { trial: 30, base: { price: 'price_biz', quantity: 1 } },
    });
    // The default trial (Stripe on, no pricing trial) is marked on cloud_v0_pro.
    const noTrial: Pricing = { cloud_v0_pro: PRICING.cloud_v0_pro! };
    expect(pricingAnswer({ pricing: noTrial, freePlan: 'cloud_v0_hobby', trial: { plan: 'cloud_v0_pro', days: 14 } }).cloud_v0_pro)
      .toEqual({ base: { price: 'price_pro', quantity: 1 }, traces: { price: 'price_traces' }, trial: 14 });
    // A plan marked free keeps its own slots.
    const freePro: Pricing = { cloud_v0_pro: { ...PRICING.cloud_v0_pro!, free: true } };
    expect(pricingAnswer({ pricing: freePro, freePlan: 'cloud_v0_pro', trial: null })).toEqual({
      cloud_v0_pro: { free: true, base: { price: 'price_pro', quantity: 1 }, traces: { price: 'price_traces' } },
    });
  });

  it('line items of a plan are its slots in order (quantity only where configured); a plan without pricing has none', () => {
    expect(lineItemsFor(PRICING, 'cloud_v0_pro')).toEqual([{ price: 'price_pro', quantity: 1 }, { price: 'price_traces' }]);
    expect(lineItemsFor(PRICING, 'cloud_v0_hobby')).toEqual([]);
    expect(lineItemsFor(PRICING, 'toString')).toEqual([]);
  });
});

describe('free, trial and signup plans', () => {
  it('the free plan is the pricing entry marked free, else cloud_v0_hobby', () => {
    expect(resolveFreePlan({})).toBe('cloud_v0_hobby');
    expect(resolveFreePlan({ ...PRICING, cloud_v0_pro: { ...PRICING.cloud_v0_pro!, free: true } })).toBe('cloud_v0_pro');
  });

  it('the trial is the pricing entry with trial days, else cloud_v0_pro for 14 days with Stripe on, else none', () => {
    expect(resolveTrial(PRICING, false)).toEqual({ plan: 'cloud_v0_business', days: 30 });
    expect(resolveTrial({}, true)).toEqual({ plan: 'cloud_v0_pro', days: 14 });
    expect(resolveTrial({}, false)).toBeNull();
  });

  it('signup: Stripe on with a trial starts the trial anchored on its last day; Stripe on without trial the free plan; no Stripe the default plan', () => {
    const now = new Date('2026-01-25T23:30:00Z');
    expect(resolveSignupPlan({ stripeEnabled: true, trial: { plan: 'cloud_v0_pro', days: 14 }, freePlan: 'cloud_v0_hobby' }, 'self_hosted_enterprise', now))
      .toEqual({ kind: 'trial', plan: 'cloud_v0_pro', trialDays: 14, anchor: 8 }); // 2026-02-08
    expect(resolveSignupPlan({ stripeEnabled: true, trial: null, freePlan: 'cloud_v0_hobby' }, 'self_hosted_enterprise', now))
      .toEqual({ kind: 'plan', plan: 'cloud_v0_hobby', anchor: 25 });
    expect(resolveSignupPlan({ stripeEnabled: false, trial: { plan: 'cloud_v0_business', days: 30 }, freePlan: 'cloud_v0_hobby' }, 'self_hosted_enterprise', now))
      .toEqual({ kind: 'plan', plan: 'self_hosted_enterprise', anchor: 25 });
  });

  it('days of the month are UTC, from a Date or unix seconds', () => {
    expect(utcDayOfMonth(new Date('2026-03-31T23:59:59-05:00'))).toBe(1);
    expect(utcDayOfMonth(Date.UTC(2026, 0, 31) / 1000)).toBe(31);
  });
});
