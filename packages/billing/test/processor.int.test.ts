// The Stripe processor on the official library against the real stripe-mock (started once per run by
// test/global-setup.ts, or STRIPE_MOCK_URL). stripe-mock validates every request against Stripe's API
// spec and answers fixtures without keeping state, so these tests check that each call is accepted,
// what it sends (through a recording proxy) and the shape of what comes back. Failures the mock
// cannot produce (idempotency conflicts, missing resources, timeouts) come from a scripted server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import Stripe from 'stripe';
import {
  createPaymentsProcessor, createStripeProcessor, loadBillingConfig, lineItemsFor, usageReportKey,
  PaymentsProcessorError, ProcessorEventRejected, type BillingConfig, type PaymentsProcessor,
} from '../src/index.ts';

const ORG = '0190a0b2-5c6d-7e8f-9a0b-1c2d3e4f5a6b';
const SECRET = 'whsec_test_secret';
const PLANS = ['cloud_v0_hobby', 'cloud_v0_pro', 'cloud_v0_business', 'cloud_v0_agenta_ai', 'self_hosted_enterprise'];
const PRICING = { cloud_v0_pro: { base: { price: 'price_pro', quantity: 1 }, traces: { price: 'price_traces' } }, cloud_v0_business: { base: { price: 'price_biz', quantity: 1 } } };

interface Recorded { method: string; path: string; query: URLSearchParams; form: URLSearchParams; idempotencyKey: string | undefined }

/** A pass-through proxy in front of stripe-mock that records every request. */
async function recordingProxy(target: string): Promise<{ url: string; requests: Recorded[]; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://proxy');
      const key = req.headers['idempotency-key'];
      requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, form: new URLSearchParams(body.toString()), idempotencyKey: typeof key === 'string' ? key : undefined });
      const fwd = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      fwd.on('error', (err) => { res.writeHead(502); res.end(String(err)); });
      fwd.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

let proxy: Awaited<ReturnType<typeof recordingProxy>>;
let config: BillingConfig;
let processor: PaymentsProcessor;

/** The requests a call made. */
async function sent<T>(f: () => Promise<T>): Promise<{ result: T; requests: Recorded[] }> {
  const from = proxy.requests.length;
  const result = await f();
  return { result, requests: proxy.requests.slice(from) };
}

beforeAll(async () => {
  proxy = await recordingProxy(inject('stripeMockUrl'));
  const r = loadBillingConfig({
    STRIPE_API_KEY: 'sk_test_billing', STRIPE_API_URL: proxy.url, STRIPE_WEBHOOK_SECRET: SECRET,
    BILLING_PRICING: JSON.stringify(PRICING), BILLING_TARGET: 'int-test',
  }, PLANS);
  if (!r.ok) throw new Error(r.problems.join('; '));
  config = r.config;
  const p = createPaymentsProcessor(config);
  if (!p) throw new Error('processor not configured');
  processor = p;
});

afterAll(async () => {
  await proxy?.close();
});

describe('stripe processor against stripe-mock', () => {
  it('without STRIPE_API_KEY there is no processor', () => {
    const r = loadBillingConfig({}, PLANS);
    expect(r.ok && createPaymentsProcessor(r.config)).toBeNull();
  });

  it('createCustomer: a cus_ id; metadata organization_id and target; the key is derived from target and organization', async () => {
    const { result, requests } = await sent(() => processor.createCustomer({ organizationId: ORG, target: config.target, email: 'owner@example.com' }));
    expect(result).toMatch(/^cus_/);
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect([req!.method, req!.path]).toEqual(['POST', '/v1/customers']);
    expect(req!.form.get('metadata[organization_id]')).toBe(ORG);
    expect(req!.form.get('metadata[target]')).toBe('int-test');
    expect(req!.form.get('email')).toBe('owner@example.com');
    expect(req!.idempotencyKey).toBe(`customer:int-test:${ORG}`);
  });

  it('createCheckout: a hosted checkout URL for a subscription with the plan line items and metadata {organization_id, plan, target}', async () => {
    const { result, requests } = await sent(() => processor.createCheckout({
      customerId: 'cus_123', plan: 'cloud_v0_pro', lineItems: lineItemsFor(config.pricing, 'cloud_v0_pro'),
      successUrl: 'https://app.example.com/billing?ok=1', metadata: { organization_id: ORG, target: config.target },
    }));
    expect(result).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const f = requests[0]!.form;
    expect([requests[0]!.method, requests[0]!.path]).toEqual(['POST', '/v1/checkout/sessions']);
    expect(Object.fromEntries(f)).toMatchObject({
      mode: 'subscription',
      customer: 'cus_123',
      success_url: 'https://app.example.com/billing?ok=1',
      'line_items[0][price]': 'price_pro',
      'line_items[0][quantity]': '1',
      'line_items[1][price]': 'price_traces',
      'subscription_data[metadata][organization_id]': ORG,
      'subscription_data[metadata][plan]': 'cloud_v0_pro',
      'subscription_data[metadata][target]': 'int-test',
    });
    // A metered price carries no quantity.
    expect(f.has('line_items[1][quantity]')).toBe(false);
    expect(requests[0]!.idempotencyKey).toMatch(/^checkout:/);
  });

  it('a plan without line items is refused before any request', async () => {
    const none = await sent(async () => {
      const args = { customerId: 'cus_123', plan: 'cloud_v0_hobby', lineItems: lineItemsFor(config.pricing, 'cloud_v0_hobby'), metadata: { organization_id: ORG, target: config.target } };
      await expect(processor.createCheckout({ ...args, successUrl: 'https://app.example.com' })).rejects.toThrow("plan 'cloud_v0_hobby' has no line items");
      await expect(processor.createSubscription(args)).rejects.toThrow(RangeError);
      await expect(processor.switchPlan('sub_123', [], { plan: 'cloud_v0_hobby' })).rejects.toThrow(RangeError);
    });
    expect(none.requests).toEqual([]);
  });

  it('createPortal: a portal session URL, with the return URL when given', async () => {
    const { result, requests } = await sent(() => processor.createPortal({ customerId: 'cus_123', returnUrl: 'https://app.example.com/billing' }));
    expect(result).toMatch(/^https:\/\//);
    expect([requests[0]!.method, requests[0]!.path]).toEqual(['POST', '/v1/billing_portal/sessions']);
    expect(Object.fromEntries(requests[0]!.form)).toEqual({ customer: 'cus_123', return_url: 'https://app.example.com/billing' });
    expect(requests[0]!.idempotencyKey).toMatch(/^portal:/);
    const bare = await sent(() => processor.createPortal({ customerId: 'cus_123' }));
    expect(bare.requests[0]!.form.has('return_url')).toBe(false);
  });

  it('createSubscription: a trialing signup subscription, cancelled at trial end without a payment method', async () => {
    const { result, requests } = await sent(() => processor.createSubscription({
      customerId: 'cus_123', plan: 'cloud_v0_pro', lineItems: lineItemsFor(config.pricing, 'cloud_v0_pro'),
      metadata: { organization_id: ORG, target: config.target }, trialDays: 14,
    }));
    expect(result.id).toMatch(/^sub_/);
    expect(Object.fromEntries(requests[0]!.form)).toMatchObject({
      customer: 'cus_123',
      'items[0][price]': 'price_pro',
      'metadata[plan]': 'cloud_v0_pro',
      'metadata[organization_id]': ORG,
      trial_period_days: '14',
      'trial_settings[end_behavior][missing_payment_method]': 'cancel',
    });
    expect(requests[0]!.idempotencyKey).toBe('subscription:cus_123:cloud_v0_pro');
  });

  it('getSubscription: status, period from the first item (unix seconds), items', async () => {
    const { result, requests } = await sent(() => processor.getSubscription('sub_123'));
    expect([requests[0]!.method, requests[0]!.path]).toEqual(['GET', '/v1/subscriptions/sub_123']);
    expect(result.id).toBe('sub_123');
    expect(typeof result.status).toBe('string');
    expect(result.customerId).toMatch(/^cus_/);
    expect(result.items.length).toBeGreaterThan(0);
    expect(result.items[0]!.id).toMatch(/^si_/);
    expect(Number.isInteger(result.periodStart)).toBe(true);
    expect(Number.isInteger(result.periodEnd)).toBe(true);
  });

  it('switchPlan: every current item deleted and the new plan items added, metadata.plan updated', async () => {
    const { result, requests } = await sent(() => processor.switchPlan('sub_123', lineItemsFor(config.pricing, 'cloud_v0_business'), { plan: 'cloud_v0_business' }));
    expect(requests.map((r) => [r.method, r.path])).toEqual([['GET', '/v1/subscription_items'], ['POST', '/v1/subscriptions/sub_123']]);
    expect(requests[0]!.query.get('subscription')).toBe('sub_123');
    const f = requests[1]!.form;
    const current = f.get('items[0][id]');
    expect(current).toMatch(/^si_/);
    expect(f.get('items[0][deleted]')).toBe('true');
    const added = [...f.keys()].filter((k) => k.endsWith('[price]')).map((k) => f.get(k));
    expect(added).toEqual(['price_biz']);
    expect(f.get('metadata[plan]')).toBe('cloud_v0_business');
    expect(requests[1]!.idempotencyKey).toMatch(/^switch:/);
    expect(result.id).toBe('sub_123');
  });

  it('cancel: DELETE of the subscription, its status returned', async () => {
    const { result, requests } = await sent(() => processor.cancel('sub_123'));
    expect([requests[0]!.method, requests[0]!.path]).toEqual(['DELETE', '/v1/subscriptions/sub_123']);
    expect(typeof result.status).toBe('string');
  });

  it('reportUsage: a traces meter event whose identifier and request key are the report key; zero is not sent', async () => {
    const key = usageReportKey(ORG, 'traces', '2026-11-03T10:00:00.000Z');
    const at = new Date('2026-11-03T10:59:59.500Z');
    const { result, requests } = await sent(() => processor.reportUsage({ customerId: 'cus_123', meter: 'traces', value: 42_000, timestamp: at, idempotencyKey: key }));
    expect(result).toEqual({ status: 'reported' });
    expect([requests[0]!.method, requests[0]!.path]).toEqual(['POST', '/v1/billing/meter_events']);
    expect(Object.fromEntries(requests[0]!.form)).toEqual({
      event_name: 'traces', 'payload[stripe_customer_id]': 'cus_123', 'payload[value]': '42000', identifier: key, timestamp: String(Math.floor(at.getTime() / 1000)),
    });
    expect(requests[0]!.idempotencyKey).toBe(key);
    expect(key).toBe(`usage:traces:${ORG}:2026-11-03T10:00:00.000Z`);

    const zero = await sent(() => processor.reportUsage({ customerId: 'cus_123', meter: 'traces', value: 0, timestamp: at, idempotencyKey: key }));
    expect([zero.result, zero.requests]).toEqual([{ status: 'skipped' }, []]);
    await expect(processor.reportUsage({ customerId: 'cus_123', meter: 'traces', value: -1, timestamp: at, idempotencyKey: key })).rejects.toThrow(RangeError);
  });

  it('a request the API refuses is a PaymentsProcessorError: invalid_request (400), authentication (bad key)', async () => {
    const err = await processor.switchPlan('sub_123', [{ price: 'price_biz', quantity: 1.5 }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentsProcessorError);
    expect(err).toMatchObject({ kind: 'invalid_request', statusCode: 400 });
    const badKey = createStripeProcessor({ settings: { ...config.stripe!, apiKey: 'not-a-key' }, webhookSecret: null });
    await expect(badKey.getSubscription('sub_123')).rejects.toMatchObject({ name: 'PaymentsProcessorError', kind: 'authentication', statusCode: 401 });
  });
});

describe('stripe processor failures stripe-mock cannot produce', () => {
  let server: http.Server;
  let url: URL;
  const hits: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      const reply = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
      if (req.url === '/v1/billing/meter_events') {
        reply(400, { error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' } });
      } else if (req.url?.startsWith('/v1/subscriptions/sub_gone')) {
        reply(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: "No such subscription: 'sub_gone'" } });
      } else if (req.url?.startsWith('/v1/subscriptions/sub_slow')) {
        // never answers: the client times out
      } else {
        reply(500, { error: { type: 'api_error', message: 'boom' } });
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const scripted = (timeoutMs?: number) => createStripeProcessor({
    settings: { apiKey: 'sk_test_x', host: url.hostname, port: Number(url.port), protocol: 'http' },
    webhookSecret: null,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });

  it('a report already made with another value is a duplicate, not a second bill', async () => {
    const r = await scripted().reportUsage({ customerId: 'cus_1', meter: 'traces', value: 7, timestamp: 1_700_000_000, idempotencyKey: 'usage:traces:o:p' });
    expect(r).toEqual({ status: 'duplicate' });
  });

  it('a missing subscription is not_found; a server error is unavailable after 2 retries', async () => {
    await expect(scripted().getSubscription('sub_gone')).rejects.toMatchObject({ kind: 'not_found', statusCode: 404, code: 'resource_missing' });
    hits.length = 0;
    await expect(scripted().cancel('sub_other')).rejects.toMatchObject({ kind: 'unavailable', statusCode: 500 });
    expect(hits).toHaveLength(3);
  }, 20_000);

  it('a request that does not answer times out, retried twice, as unavailable', async () => {
    hits.length = 0;
    // The processor never answers: each attempt ends by its own timeout (else this test times out).
    await expect(scripted(300).getSubscription('sub_slow')).rejects.toMatchObject({ kind: 'unavailable' });
    expect(hits).toHaveLength(3);
  }, 20_000);
});

describe('processor event verification', () => {
  const stripe = new Stripe('sk_test_x');
  const body = JSON.stringify({
    id: 'evt_123', object: 'event', type: 'customer.subscription.created',
    data: { object: { id: 'sub_1', object: 'subscription', billing_cycle_anchor: 1_700_000_000, metadata: { organization_id: ORG, target: 'int-test', plan: 'cloud_v0_pro' } } },
  });
  const sign = (payload: string, timestamp = Math.floor(Date.now() / 1000), secret = SECRET) =>
    stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  const rejection = (f: () => unknown): { reason: string; status: number; body: unknown } => {
    try {
      f();
    } catch (err) {
      if (!(err instanceof ProcessorEventRejected)) throw err;
      return { reason: err.reason, status: err.status, body: err.body };
    }
    throw new Error('not rejected');
  };

  it('given a correctly signed body, then the event is returned as sent', () => {
    expect(processor.verifyEvent(Buffer.from(body), sign(body))).toEqual(JSON.parse(body));
  });

  it('when the body was changed after signing, then 401 "Signature verification failed"', () => {
    const tampered = body.replace('cloud_v0_pro', 'cloud_v0_business');
    expect(rejection(() => processor.verifyEvent(Buffer.from(tampered), sign(body))))
      .toEqual({ reason: 'signature', status: 401, body: { status: 'error', message: 'Signature verification failed' } });
  });

  it('when the signature is older than 300 s, or made with another secret, then 401', () => {
    expect(rejection(() => processor.verifyEvent(Buffer.from(body), sign(body, Math.floor(Date.now() / 1000) - 301))).reason).toBe('signature');
    expect(processor.verifyEvent(Buffer.from(body), sign(body, Math.floor(Date.now() / 1000) - 290)).id).toBe('evt_123');
    expect(rejection(() => processor.verifyEvent(Buffer.from(body), sign(body, undefined, 'whsec_other'))).reason).toBe('signature');
  });

  it('when the stripe-signature header is missing or empty or garbage, then 401', () => {
    expect(rejection(() => processor.verifyEvent(Buffer.from(body), undefined)).status).toBe(401);
    expect(rejection(() => processor.verifyEvent(Buffer.from(body), '')).status).toBe(401);
    expect(rejection(() => processor.verifyEvent(Buffer.from(body), 't=1,v1=00')).status).toBe(401);
  });

  it('the body is checked before the signature (§11 order): not JSON -> 400, not an event -> 400 Invalid payload', () => {
    expect(rejection(() => processor.verifyEvent(Buffer.from('nope'), sign('nope'))))
      .toEqual({ reason: 'not_json', status: 400, body: { status: 'error', message: 'Payload extraction failed' } });
    expect(rejection(() => processor.verifyEvent(Buffer.from('{"id":"evt_1"}'), undefined)))
      .toEqual({ reason: 'invalid_payload', status: 400, body: { detail: 'Invalid payload' } });
  });

  it('without STRIPE_WEBHOOK_SECRET every event is refused, even a signed one', () => {
    const unverifiable = createStripeProcessor({ settings: config.stripe!, webhookSecret: null });
    expect(rejection(() => unverifiable.verifyEvent(Buffer.from(body), sign(body))))
      .toEqual({ reason: 'not_configured', status: 503, body: { status: 'error', message: 'Processor events not configured' } });
  });
});
