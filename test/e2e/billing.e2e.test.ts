// Billing (reference accounts §11) on the real stack with the official Stripe library against
// stripe-mock: every route on both prefixes, permissions, signed processor events applied once, and
// the signup trial. stripe-mock keeps no state, so the processor's side is checked by what it answers
// (ids, URLs, shapes); our side by the API and the projected subscription record.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { createSessionCodec } from '@llm/web-session';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { WEBHOOK_SECRET, signedEvent, sql, storedSubscription, subscriptionEvent } from '../support/billing.ts';

let t: TestApp;
const PRICING = {
  cloud_v0_hobby: { free: true },
  cloud_v0_pro: { trial: 14, base: { price: 'price_pro', quantity: 1 }, traces: { price: 'price_traces' } },
  cloud_v0_business: { base: { price: 'price_business', quantity: 1 } },
};

beforeAll(async () => {
  t = await startTestApp({
    STRIPE_API_KEY: 'sk_test_123', STRIPE_API_URL: inject('stripeMockUrl'), STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    BILLING_PRICING: JSON.stringify(PRICING), ACCESS_DEFAULT_PLAN: 'cloud_v0_hobby',
  });
});
afterAll(async () => { await t?.stop(); });

const evt = () => `evt_${randomBytes(8).toString('hex')}`;
async function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await fetch(`${t.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: res.status, body: json as Record<string, unknown> };
}
const as = (acc: TestAccount) => (method: string, path: string) => call(method, path, acc.auth);
const postEvent = (event: Record<string, unknown>, prefix = 'payments', opts: { secret?: string; timestamp?: number; tamper?: boolean } = {}) => {
  const signed = signedEvent(event, opts);
  return call('POST', `/billing/${prefix}/events/`, signed.headers, opts.tamper ? signed.body.replace('"plan":"', '"plan":"x') : signed.body);
};

describe('signup', () => {
  it('given Stripe with a trial, when an account signs up, then it is on the trial plan with a trialing processor subscription recorded', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const stored = await storedSubscription(t.databaseUrl, acc.organizationId);
    expect(stored).toMatchObject({ plan: 'cloud_v0_pro', active: true, trialing: true });
    expect(stored?.customer_id).toMatch(/^cus_/);
    expect(stored?.subscription_id).toMatch(/^sub_/);
    // Anchored on the day the trial ends.
    expect(stored?.anchor).toBe(new Date(Date.now() + 14 * 86_400_000).getUTCDate());
    const sub = await as(acc)('GET', '/billing/subscription');
    expect(sub.status).toBe(200);
    expect(sub.body).toMatchObject({ plan: 'cloud_v0_pro', type: 'standard' });
    expect(typeof sub.body.free_trial).toBe('boolean');
  });

  it('given an operator-chosen plan, then no processor subscription is made', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    expect(await storedSubscription(t.databaseUrl, acc.organizationId)).toMatchObject({ plan: 'cloud_v0_hobby', customer_id: null, subscription_id: null });
    expect((await as(acc)('GET', '/billing/subscription')).body).toEqual({ plan: 'cloud_v0_hobby', type: 'standard' });
  });
});

describe('catalog, pricing and plans', () => {
  it('when a member reads them, then pricing has the free and trial markers, the catalog the processor prices, plans the standard entries', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    const pricing = await as(acc)('GET', '/billing/pricing');
    expect(pricing.status).toBe(200);
    expect(pricing.body).toEqual({
      cloud_v0_hobby: { free: true },
      cloud_v0_pro: { trial: 14, base: { price: 'price_pro', quantity: 1 }, traces: { price: 'price_traces' } },
      cloud_v0_business: { base: { price: 'price_business', quantity: 1 } },
    });
    const catalog = await as(acc)('GET', '/billing/catalog');
    expect(catalog.status).toBe(200);
    const entries = catalog.body as unknown as Array<{ plan?: string; type: string; price?: unknown }>;
    expect(entries.find((e) => e.plan === 'cloud_v0_business')?.price).toEqual({ base: { price: 'price_business', quantity: 1 } });
    const plans = (await as(acc)('GET', '/billing/plans')).body as unknown as Array<{ plan?: string; type: string }>;
    expect(plans.every((p) => p.type === 'standard')).toBe(true);
    expect(plans.map((p) => p.plan)).toContain('cloud_v0_pro');
    // The custom entry only for the organization on that plan.
    const custom = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_agenta_ai' });
    const customPlans = (await as(custom)('GET', '/billing/plans')).body as unknown as Array<{ plan?: string }>;
    expect(customPlans.map((p) => p.plan)).toContain('cloud_v0_agenta_ai');
    expect((await call('GET', '/billing/plans')).status).toBe(401);
  });
});

describe('checkouts and portals', () => {
  for (const prefix of ['payments', 'stripe']) {
    it(`given a free organization, when it checks out under /billing/${prefix}/, then a checkout URL and its customer is recorded; the portal opens after`, async () => {
      const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
      const go = as(acc);
      expect((await go('POST', `/billing/${prefix}/portals/`)).body).toEqual({ status: 'error', message: 'Access denied: please subscribe to a plan to access the portal' });
      expect((await go('POST', `/billing/${prefix}/checkouts/?plan=cloud_v0_business`)).status).toBe(422);
      expect((await go('POST', `/billing/${prefix}/checkouts/?success_url=https://app.example.com/done`)).status).toBe(422);
      const bad = await go('POST', `/billing/${prefix}/checkouts/?plan=nope&success_url=https://app.example.com/done`);
      expect(bad).toEqual({ status: 400, body: { detail: 'Invalid plan' } });
      const unpriced = await go('POST', `/billing/${prefix}/checkouts/?plan=cloud_v0_agenta_ai&success_url=https://app.example.com/done`);
      expect(unpriced).toEqual({ status: 400, body: { detail: "Plan 'cloud_v0_agenta_ai' is not available for purchase (no Stripe line items configured)." } });

      const ok = await go('POST', `/billing/${prefix}/checkouts/?plan=cloud_v0_business&success_url=https://app.example.com/done`);
      expect(ok.status).toBe(200);
      expect(typeof ok.body.checkout_url).toBe('string');
      expect(String(ok.body.checkout_url)).toMatch(/^https?:\/\//);
      const stored = await storedSubscription(t.databaseUrl, acc.organizationId);
      expect(stored).toMatchObject({ plan: 'cloud_v0_hobby', subscription_id: null });
      expect(stored?.customer_id).toMatch(/^cus_/);

      const portal = await go('POST', `/billing/${prefix}/portals/`);
      expect(portal.status).toBe(200);
      expect(String(portal.body.portal_url)).toMatch(/^https?:\/\//);
    });
  }

  it('given a processor subscription, when checking out again, then 400 "Subscription (Stripe) already exists"', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const r = await as(acc)('POST', '/billing/payments/checkouts/?plan=cloud_v0_business&success_url=https://app.example.com/done');
    expect(r).toEqual({ status: 400, body: { status: 'error', message: 'Subscription (Stripe) already exists' } });
  });
});

describe('processor events', () => {
  it('given a signed customer.subscription.created, then it is applied once: the plan and its entitlements change; a redelivery changes nothing', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    expect((await as(acc)('GET', '/organizations/domains/')).status).toBe(403);
    const event = subscriptionEvent('customer.subscription.created', { eventId: evt(), organizationId: acc.organizationId, plan: 'cloud_v0_business', subscriptionId: 'sub_biz', customerId: 'cus_biz' });

    expect(await postEvent(event, 'payments', { tamper: true })).toEqual({ status: 401, body: { status: 'error', message: 'Signature verification failed' } });
    expect(await postEvent(event, 'payments', { timestamp: Math.floor(Date.now() / 1000) - 600 })).toEqual({ status: 401, body: { status: 'error', message: 'Signature verification failed' } });
    expect(await postEvent(event, 'payments', { secret: 'whsec_someone_else' })).toMatchObject({ status: 401 });
    expect((await call('POST', '/billing/payments/events/', { 'Content-Type': 'application/json' }, JSON.stringify(event))).status).toBe(401);
    expect(await storedSubscription(t.databaseUrl, acc.organizationId)).toMatchObject({ plan: 'cloud_v0_hobby' });

    expect(await postEvent(event)).toEqual({ status: 200, body: { status: 'success' } });
    const applied = await storedSubscription(t.databaseUrl, acc.organizationId);
    expect(applied).toMatchObject({ plan: 'cloud_v0_business', subscription_id: 'sub_biz', customer_id: 'cus_biz', active: true });
    expect((await as(acc)('GET', '/billing/subscription')).body).toMatchObject({ plan: 'cloud_v0_business', type: 'standard' });
    expect((await as(acc)('GET', '/organizations/domains/')).status).toBe(200);

    // The same event again, on either prefix: 200, nothing changes.
    expect(await postEvent(event, 'stripe')).toEqual({ status: 200, body: { status: 'success' } });
    expect(await postEvent(event)).toEqual({ status: 200, body: { status: 'success' } });
    expect((await storedSubscription(t.databaseUrl, acc.organizationId))?.version).toBe(applied?.version);
  });

  it('given customer.subscription.deleted, then the organization is back on the free plan and its auth flags are reset', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    const created = subscriptionEvent('customer.subscription.created', { eventId: evt(), organizationId: acc.organizationId, plan: 'cloud_v0_business', subscriptionId: 'sub_gone' });
    expect((await postEvent(created, 'stripe')).status).toBe(200);
    await sql(t.databaseUrl, `UPDATE organizations SET flags = '{"allow_email": true, "auto_join": true}'::jsonb WHERE id = $1`, [acc.organizationId]);
    const deleted = subscriptionEvent('customer.subscription.deleted', { eventId: evt(), organizationId: acc.organizationId, plan: 'cloud_v0_business', subscriptionId: 'sub_gone' });
    expect(await postEvent(deleted, 'stripe')).toEqual({ status: 200, body: { status: 'success' } });
    expect(await storedSubscription(t.databaseUrl, acc.organizationId)).toMatchObject({ plan: 'cloud_v0_hobby', subscription_id: null });
    const flags = await sql(t.databaseUrl, 'SELECT flags FROM organizations WHERE id = $1', [acc.organizationId]);
    expect(flags.rows[0].flags).toEqual({});
    expect((await as(acc)('GET', '/organizations/domains/')).status).toBe(403);
  });

  it('given events this deployment cannot apply, then 4xx or skip, never 5xx', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    const base = { eventId: evt(), organizationId: acc.organizationId, plan: 'cloud_v0_business' };
    expect(await postEvent(subscriptionEvent('customer.subscription.created', { ...base, target: 'elsewhere' }))).toEqual({ status: 200, body: { status: 'skip', message: 'Target mismatch' } });
    expect(await postEvent(subscriptionEvent('customer.subscription.created', { ...base, plan: 'nope' }))).toEqual({ status: 400, body: { status: 'error', message: "Unknown plan 'nope'" } });
    expect(await postEvent(subscriptionEvent('customer.subscription.updated', base))).toEqual({ status: 400, body: { status: 'error', message: 'Unsupported event' } });
    expect(await postEvent(subscriptionEvent('customer.subscription.created', { ...base, organizationId: '00000000-0000-4000-8000-000000000000' }))).toEqual({ status: 404, body: { status: 'error', message: 'Organization not found' } });
    const failed = { id: evt(), type: 'invoice.payment_failed', data: { object: { subscription: 'sub_x', subscription_details: { metadata: { organization_id: acc.organizationId, target: 'llm-backend' } } } } };
    expect((await postEvent(failed)).status).toBe(200);
    expect((await call('POST', '/billing/payments/events/', { 'Content-Type': 'application/json' }, 'not json')).status).toBe(400);
  });
});

describe('plan switch and cancel', () => {
  it('given a processor subscription, when the owner switches plans, then the record follows; the rules of §11 answer 400', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const go = as(acc);
    expect((await go('POST', '/billing/plans/switch/')).status).toBe(422);
    expect(await go('POST', '/billing/plans/switch/?plan=nope')).toEqual({ status: 400, body: { detail: 'Invalid plan' } });
    expect((await go('POST', '/billing/plans/switch/?plan=cloud_v0_pro')).status).toBe(400);
    expect(await go('POST', '/billing/plans/switch/?plan=cloud_v0_business')).toEqual({ status: 200, body: { status: 'success' } });
    expect(await storedSubscription(t.databaseUrl, acc.organizationId)).toMatchObject({ plan: 'cloud_v0_business' });
    expect((await go('GET', '/organizations/domains/')).status).toBe(200);

    const free = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    expect((await as(free)('POST', '/billing/plans/switch/?plan=cloud_v0_pro')).status).toBe(400);
  });

  it('given a trialing organization, when the owner cancels, then the processor subscription ends and the free plan applies', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    expect(await as(acc)('POST', '/billing/subscription/cancel')).toEqual({ status: 200, body: { status: 'success' } });
    expect(await storedSubscription(t.databaseUrl, acc.organizationId)).toMatchObject({ plan: 'cloud_v0_hobby', subscription_id: null, trialing: false });
    expect((await as(acc)('GET', '/billing/subscription')).body).toEqual({ plan: 'cloud_v0_hobby', type: 'standard' });
    // Already free: nothing to cancel, still a success.
    expect(await as(acc)('POST', '/billing/subscription/cancel/')).toEqual({ status: 200, body: { status: 'success' } });
  });
});

describe('permissions', () => {
  it('given a viewer of the organization, then billing reads are allowed and every write is 403', async () => {
    const owner = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    const v = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    const set = await fetch(`${t.baseUrl}/admin/simple/accounts/organizations/memberships/`, {
      method: 'POST', headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ organization_id: owner.organizationId, user: { id: v.userId }, role: 'viewer' }),
    });
    expect(set.status).toBe(200);
    const sessions = createSessionCodec({ secrets: t.secrets.SESSION_SECRETS.split(','), secure: false });
    const cookie = { Cookie: `${sessions.cookieName}=${sessions.issue({ user_id: v.userId, email: v.email, identities: ['email:otp'] }).token}` };
    const viewer = (method: string, path: string) => call(method, `${path}${path.includes('?') ? '&' : '?'}project_id=${owner.projectId}`, cookie);
    for (const path of ['/billing/subscription', '/billing/plans', '/billing/catalog', '/billing/pricing']) expect((await viewer('GET', path)).status).toBe(200);
    for (const path of [
      '/billing/payments/checkouts/?plan=cloud_v0_pro&success_url=https://a.example.com/', '/billing/stripe/checkouts/?plan=cloud_v0_pro&success_url=https://a.example.com/',
      '/billing/payments/portals/', '/billing/stripe/portals/', '/billing/plans/switch/?plan=cloud_v0_pro', '/billing/subscription/cancel',
    ]) expect((await viewer('POST', path)).status).toBe(403);
  });
});
