// Billing configuration: defaults, the processor address, and BILLING_CATALOG / BILLING_PRICING
// validated strictly at startup against the plan catalog.
import { describe, expect, it } from 'vitest';
import { loadBillingConfig, DEFAULT_CATALOG, type BillingEnv } from '../src/index.ts';

// The default plans of the access catalog (packages/access DEFAULT_PLANS).
const PLANS = ['cloud_v0_hobby', 'cloud_v0_pro', 'cloud_v0_business', 'cloud_v0_agenta_ai', 'self_hosted_enterprise'];
const PRO_ITEMS = { cloud_v0_pro: { base: { price: 'price_pro', quantity: 1 }, traces: { price: 'price_traces' } } };

function ok(env: BillingEnv, plans = PLANS) {
  const r = loadBillingConfig(env, plans);
  if (!r.ok) throw new Error(`unexpected problems: ${r.problems.join('; ')}`);
  return r.config;
}

function problems(env: BillingEnv, plans = PLANS): string[] {
  const r = loadBillingConfig(env, plans);
  if (r.ok) throw new Error('expected problems');
  return r.problems;
}

describe('billing configuration', () => {
  it('given nothing, then Stripe is off, events are refused, the default catalog applies, hobby is free and there is no trial', () => {
    const c = ok({});
    expect(c.stripe).toBeNull();
    expect(c.stripeEnabled).toBe(false);
    expect(c.webhookSecret).toBeNull();
    expect(c.target).toBe('llm-backend');
    expect(c.catalog).toEqual(DEFAULT_CATALOG);
    expect(c.pricing).toEqual({});
    expect(c.freePlan).toBe('cloud_v0_hobby');
    expect(c.trial).toBeNull();
    expect(c.usageReportIntervalMs).toBe(3_600_000);
  });

  it('given a key and STRIPE_API_URL, then the client address is its host, port and protocol; without the URL none is set', () => {
    const mock = ok({ STRIPE_API_KEY: 'sk_test_1', STRIPE_API_URL: 'http://127.0.0.1:12111', BILLING_PRICING: JSON.stringify(PRO_ITEMS) });
    expect(mock.stripe).toEqual({ apiKey: 'sk_test_1', host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(mock.stripeEnabled).toBe(true);
    expect(ok({ STRIPE_API_KEY: 'sk_test_1', STRIPE_API_URL: 'https://stripe.internal/', BILLING_PRICING: JSON.stringify(PRO_ITEMS) }).stripe)
      .toEqual({ apiKey: 'sk_test_1', host: 'stripe.internal', port: 443, protocol: 'https' });
    expect(ok({ STRIPE_API_KEY: 'sk_test_1', STRIPE_API_URL: 'http://[::1]:9', BILLING_PRICING: JSON.stringify(PRO_ITEMS) }).stripe?.host).toBe('::1');
    expect(ok({ STRIPE_API_KEY: 'sk_live_1', BILLING_PRICING: JSON.stringify(PRO_ITEMS) }).stripe).toEqual({ apiKey: 'sk_live_1' });
  });

  it('when STRIPE_API_URL is not a bare http(s) origin, then it is a startup error', () => {
    expect(problems({ STRIPE_API_KEY: 'k', STRIPE_API_URL: 'not a url' }).join()).toMatch(/STRIPE_API_URL/);
    expect(problems({ STRIPE_API_KEY: 'k', STRIPE_API_URL: 'ftp://host:21', BILLING_PRICING: JSON.stringify(PRO_ITEMS) })).toEqual(['STRIPE_API_URL: protocol must be http or https, not ftp']);
    expect(problems({ STRIPE_API_KEY: 'k', STRIPE_API_URL: 'http://host/v1', BILLING_PRICING: JSON.stringify(PRO_ITEMS) })[0]).toMatch(/only scheme, host and port/);
  });

  it('given the secret, target and interval, then they are kept; an interval under a minute is refused', () => {
    const c = ok({ STRIPE_WEBHOOK_SECRET: 'whsec_1', BILLING_TARGET: 'eu-prod', BILLING_USAGE_REPORT_INTERVAL_MS: '600000' });
    expect([c.webhookSecret, c.target, c.usageReportIntervalMs]).toEqual(['whsec_1', 'eu-prod', 600_000]);
    expect(problems({ BILLING_USAGE_REPORT_INTERVAL_MS: '10' }).join()).toMatch(/BILLING_USAGE_REPORT_INTERVAL_MS/);
  });

  it('given Stripe on and no pricing trial, then the trial is cloud_v0_pro for 14 days, which needs line items', () => {
    expect(ok({ STRIPE_API_KEY: 'k', BILLING_PRICING: JSON.stringify(PRO_ITEMS) }).trial).toEqual({ plan: 'cloud_v0_pro', days: 14 });
    expect(problems({ STRIPE_API_KEY: 'k' })).toEqual([
      'BILLING_PRICING.cloud_v0_pro: the trial plan needs line items ({"<slot>": {"price": "price_…"}}): signups start a trialing subscription on it',
    ]);
  });

  it('given BILLING_PRICING with free and trial markers, then they resolve the free and trial plans and slots keep their order', () => {
    const c = ok({
      STRIPE_API_KEY: 'k',
      BILLING_PRICING: JSON.stringify({
        cloud_v0_pro: { free: true },
        cloud_v0_business: { trial: 30, users: { price: 'price_users', quantity: 3 }, base: { price: 'price_base' } },
      }),
    });
    expect(c.freePlan).toBe('cloud_v0_pro');
    expect(c.trial).toEqual({ plan: 'cloud_v0_business', days: 30 });
    expect(c.pricing.cloud_v0_business?.slots).toEqual([{ name: 'users', price: 'price_users', quantity: 3 }, { name: 'base', price: 'price_base' }]);
  });

  it('when BILLING_PRICING is malformed, then every problem is listed with its path', () => {
    expect(problems({ BILLING_PRICING: '{nope' })[0]).toMatch(/^BILLING_PRICING: not JSON/);
    expect(problems({ BILLING_PRICING: '[]' })[0]).toMatch(/^BILLING_PRICING: /);
    const p = problems({
      BILLING_PRICING: JSON.stringify({
        cloud_v0_hobby: { free: true },
        cloud_v0_pro: { free: true, trial: 0, base: { quantity: 1 }, seats: { price: 'price_s', extra: 1 }, traces: 'price_t' },
        cloud_v0_business: {},
      }),
    });
    expect(p).toEqual(expect.arrayContaining([
      expect.stringMatching(/^BILLING_PRICING\.cloud_v0_pro\.trial: trial is a number of days/),
      expect.stringMatching(/^BILLING_PRICING\.cloud_v0_pro\.base\.price: /),
      expect.stringMatching(/^BILLING_PRICING\.cloud_v0_pro\.seats: .*extra/),
      expect.stringMatching(/^BILLING_PRICING\.cloud_v0_pro\.traces: /),
      expect.stringMatching(/^BILLING_PRICING\.cloud_v0_business: empty/),
      'BILLING_PRICING: at most one plan is free (cloud_v0_hobby, cloud_v0_pro)',
    ]));
    expect(problems({ BILLING_PRICING: JSON.stringify({ cloud_v0_pro: { trial: 7 }, cloud_v0_business: { trial: 14 } }) }))
      .toEqual(['BILLING_PRICING: at most one plan has a trial (cloud_v0_pro, cloud_v0_business)']);
    expect(problems({ BILLING_PRICING: JSON.stringify({ cloud_v0_pro: { trial: 1.5 } }) })[0]).toMatch(/trial/);
  });

  it('when the catalog or pricing names a plan the deployment does not have, then it is a startup error', () => {
    expect(problems({ BILLING_PRICING: JSON.stringify({ team: { base: { price: 'p' } } }) })[0]).toMatch(/^BILLING_PRICING\.team: 'team' is not a plan/);
    const catalog = [{ title: 'T', description: 'd', type: 'standard', features: [], plan: 'team' }];
    expect(problems({ BILLING_CATALOG: JSON.stringify(catalog) })[0]).toMatch(/^BILLING_CATALOG\.0\.plan: 'team' is not a plan/);
  });

  it('given Stripe on, when no free plan can be resolved, or the pricing trial plan is missing, then it is a startup error; without Stripe no free plan is needed', () => {
    expect(problems({ STRIPE_API_KEY: 'k', BILLING_PRICING: JSON.stringify({ self_hosted_enterprise: { trial: 14, base: { price: 'p' } } }) }, ['self_hosted_enterprise'])).toEqual([
      "BILLING_PRICING: no free plan: mark one plan \"free\": true (the fallback 'cloud_v0_hobby' is not a plan of the catalog (self_hosted_enterprise))",
    ]);
    expect(ok({}, ['self_hosted_enterprise']).freePlan).toBe('cloud_v0_hobby');
    const own = ok({ BILLING_PRICING: JSON.stringify({ self_hosted_enterprise: { free: true } }) }, ['self_hosted_enterprise']);
    expect(own.freePlan).toBe('self_hosted_enterprise');
    // The default catalog keeps only the entries of plans the deployment has (here: the plan-less Enterprise).
    expect(own.catalog.map((c) => c.title)).toEqual(['Enterprise']);
    expect(problems({ STRIPE_API_KEY: 'k', BILLING_PRICING: JSON.stringify({ team: { free: true } }) }, ['team'])[0]).toMatch(/trial plan 'cloud_v0_pro' is not a plan/);
  });

  it('given BILLING_CATALOG, then it replaces the defaults with extra keys kept; malformed entries are startup errors', () => {
    const catalog = [
      { title: 'Team', description: 'd', type: 'standard', features: ['a'], plan: 'cloud_v0_pro', badge: 'popular', retention: 100 },
      { title: 'Ours', description: 'd', type: 'custom', features: [], plan: 'cloud_v0_agenta_ai' },
    ];
    expect(ok({ BILLING_CATALOG: JSON.stringify(catalog) }).catalog).toEqual(catalog);
    expect(problems({ BILLING_CATALOG: '{}' })[0]).toMatch(/^BILLING_CATALOG: /);
    expect(problems({ BILLING_CATALOG: 'x' })[0]).toMatch(/^BILLING_CATALOG: not JSON/);
    const bad = problems({ BILLING_CATALOG: JSON.stringify([{ title: 'T', type: 'premium', features: 'x' }, { title: 'C', description: 'd', type: 'custom', features: [] }]) });
    expect(bad).toEqual(expect.arrayContaining([
      expect.stringMatching(/^BILLING_CATALOG\.0\.description: /),
      expect.stringMatching(/^BILLING_CATALOG\.0\.type: /),
      expect.stringMatching(/^BILLING_CATALOG\.0\.features: /),
    ]));
    expect(problems({ BILLING_CATALOG: JSON.stringify([{ title: 'C', description: 'd', type: 'custom', features: [] }]) }))
      .toEqual(['BILLING_CATALOG.0.plan: a custom entry needs the plan it is shown to']);
  });
});
