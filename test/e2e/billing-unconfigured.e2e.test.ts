// Billing without a payments processor (no STRIPE_API_KEY): §11's "Stripe not configured" answers,
// the anchor's period on /billing/subscription; and a processor without a signing secret, whose
// events are refused (503, so the processor retries until the secret is configured).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { WEBHOOK_SECRET, signedEvent, subscriptionEvent } from '../support/billing.ts';

// One app at a time: the embedded ClickHouse holds one data directory per process.
let off: TestApp;
let unsigned: TestApp;

async function call(t: TestApp, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await fetch(`${t.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}
const as = (t: TestApp, acc: TestAccount) => (method: string, path: string) => call(t, method, path, acc.auth);

describe('Stripe not configured', () => {
  beforeAll(async () => { off = await startTestApp(); });
  afterAll(async () => { await off?.stop(); });

  it('when the owner opens a portal or a checkout, or the processor sends an event, then 200 "Stripe not configured"', async () => {
    const acc = await createAccount(off.baseUrl, off.adminToken);
    const notConfigured = { status: 200, body: { status: 'ok', message: 'Stripe not configured' } };
    for (const prefix of ['payments', 'stripe']) {
      expect(await as(off, acc)('POST', `/billing/${prefix}/portals/`)).toEqual(notConfigured);
      expect(await as(off, acc)('POST', `/billing/${prefix}/checkouts/?plan=cloud_v0_pro&success_url=https://app.example.com/`)).toEqual(notConfigured);
      const signed = signedEvent(subscriptionEvent('customer.subscription.created', { eventId: `evt_${randomBytes(6).toString('hex')}`, organizationId: acc.organizationId, plan: 'cloud_v0_pro' }));
      expect(await call(off, 'POST', `/billing/${prefix}/events/`, signed.headers, signed.body)).toEqual(notConfigured);
    }
  });

  it('given the default plan, then the subscription is custom with the anchor period; switch is 400; cancel without a processor subscription is 404', async () => {
    const acc = await createAccount(off.baseUrl, off.adminToken);
    const sub = await as(off, acc)('GET', '/billing/subscription');
    expect(sub.status).toBe(200);
    expect(sub.body).toMatchObject({ plan: 'self_hosted_enterprise', type: 'custom', free_trial: false });
    const now = Date.now() / 1000;
    expect(Number(sub.body.period_start)).toBeLessThanOrEqual(now);
    expect(Number(sub.body.period_end)).toBeGreaterThan(now);
    // Anchored on the day of creation (today): the period starts today at 00:00 UTC.
    expect(new Date(Number(sub.body.period_start) * 1000).getUTCDate()).toBe(new Date().getUTCDate());
    expect(await as(off, acc)('POST', '/billing/plans/switch/?plan=cloud_v0_pro')).toEqual({ status: 400, body: { detail: 'Stripe not configured' } });
    expect(await as(off, acc)('POST', '/billing/subscription/cancel')).toEqual({ status: 404, body: { detail: 'Subscription (Stripe) not found' } });
    const pricing = await as(off, acc)('GET', '/billing/pricing');
    expect(pricing.body).toEqual({ cloud_v0_hobby: { free: true } });
  });

  it('given a free-plan organization, then its subscription is the standard free plan and cancel succeeds', async () => {
    const acc = await createAccount(off.baseUrl, off.adminToken, { plan: 'cloud_v0_hobby' });
    expect((await as(off, acc)('GET', '/billing/subscription')).body).toEqual({ plan: 'cloud_v0_hobby', type: 'standard' });
    expect(await as(off, acc)('POST', '/billing/subscription/cancel')).toEqual({ status: 200, body: { status: 'success' } });
  });
});

describe('Stripe without STRIPE_WEBHOOK_SECRET', () => {
  beforeAll(async () => {
    unsigned = await startTestApp({ STRIPE_API_KEY: 'sk_test_123', STRIPE_API_URL: inject('stripeMockUrl'), BILLING_PRICING: JSON.stringify({ cloud_v0_pro: { trial: 7, base: { price: 'price_pro' } } }) });
  });
  afterAll(async () => { await unsigned?.stop(); });

  it('when the processor sends an event, signed or not, then 503 and nothing changes', async () => {
    const acc = await createAccount(unsigned.baseUrl, unsigned.adminToken, { plan: 'cloud_v0_hobby' });
    const signed = signedEvent(subscriptionEvent('customer.subscription.created', { eventId: `evt_${randomBytes(6).toString('hex')}`, organizationId: acc.organizationId, plan: 'cloud_v0_pro' }), { secret: WEBHOOK_SECRET });
    for (const prefix of ['payments', 'stripe']) {
      const r = await call(unsigned, 'POST', `/billing/${prefix}/events/`, signed.headers, signed.body);
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ status: 'error', message: 'Processor events are not accepted: STRIPE_WEBHOOK_SECRET is not configured' });
    }
    expect((await as(unsigned, acc)('GET', '/billing/subscription')).body).toEqual({ plan: 'cloud_v0_hobby', type: 'standard' });
  });
});
