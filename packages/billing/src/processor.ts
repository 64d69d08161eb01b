// The payments processor behind /billing: an interface the routes and the usage-report job call, and
// its implementation on the official Stripe library (which also talks to stripe-mock through
// STRIPE_API_URL). Every create carries an idempotency key; failures surface as PaymentsProcessorError.
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { BillingConfig, StripeSettings } from './billing-env.ts';
import type { PricingSlot } from './catalog.ts';
import { ProcessorEventRejected, parseProcessorEvent, type ProcessorEvent } from './processor-events.ts';

export type LineItem = PricingSlot;

/** The processor meters usage is reported to (counter `traces_ingested` -> meter `traces`). */
export type UsageMeter = 'traces';

/** What we put in processor metadata; events carry it back (see processor-events.ts). */
export interface SubscriptionMetadata {
  organization_id: string;
  target: string;
}

export interface ProcessorSubscription {
  id: string;
  status: string;
  customerId: string | null;
  /** Unix seconds, from the first subscription item (null without items). */
  periodStart: number | null;
  periodEnd: number | null;
  items: Array<{ id: string; price: string | null; quantity: number | null }>;
  metadata: Record<string, string>;
}

/** Methods taking `lineItems` throw a RangeError, before any request, when there are none. */
export interface PaymentsProcessor {
  /** Creates the organization's processor customer (metadata organization_id, target); returns its id.
   * The idempotency key is derived from target + organization, so a retried signup or checkout does
   * not make a second customer within the processor's 24 h key window (a retry with another name or
   * email within that window fails with kind 'idempotency'). */
  createCustomer(input: { organizationId: string; target: string; name?: string; email?: string }): Promise<string>;
  /** A hosted checkout of a subscription to `plan`; its subscription metadata is `{...metadata, plan}`. Returns the checkout URL. */
  createCheckout(input: { customerId: string; plan: string; lineItems: LineItem[]; successUrl: string; metadata: SubscriptionMetadata; idempotencyKey?: string }): Promise<string>;
  /** A customer-portal session; returns its URL. */
  createPortal(input: { customerId: string; returnUrl?: string }): Promise<string>;
  /** A subscription without checkout: the signup trial (trialDays; cancelled by the processor when it
   * ends without a payment method). Metadata `{...metadata, plan}`. Key defaults to customer + plan. */
  createSubscription(input: { customerId: string; plan: string; lineItems: LineItem[]; metadata: SubscriptionMetadata; trialDays?: number; idempotencyKey?: string }): Promise<ProcessorSubscription>;
  getSubscription(subscriptionId: string): Promise<ProcessorSubscription>;
  /** Replaces all items of the subscription by `lineItems` (and sets metadata.plan when `plan` is given). */
  switchPlan(subscriptionId: string, lineItems: LineItem[], options?: { plan?: string; idempotencyKey?: string }): Promise<ProcessorSubscription>;
  /** Cancels the subscription now; returns its status after the call ("canceled"). */
  cancel(subscriptionId: string): Promise<{ status: string }>;
  /**
   * Reports a usage delta as a meter event. `idempotencyKey` (see usageReportKey) is both the event's
   * identifier and the request's key: a retried report is answered from the first one, and a report
   * of the same key with another value is refused by the processor ('duplicate') instead of billed.
   * A zero value is not sent ('skipped').
   */
  reportUsage(input: { customerId: string; meter: UsageMeter; value: number; timestamp: number | Date; idempotencyKey: string }): Promise<{ status: 'reported' | 'duplicate' | 'skipped' }>;
  /**
   * Checks a processor event body in the order of §11: signing secret configured, JSON, event shape,
   * then the `stripe-signature` header (300 s tolerance). Throws ProcessorEventRejected (reason
   * not_configured | not_json | invalid_payload | signature); `status`/`body` are the HTTP answer.
   */
  verifyEvent(rawBody: Buffer, signatureHeader: string | undefined): ProcessorEvent;
}

export type ProcessorErrorKind = 'not_found' | 'invalid_request' | 'authentication' | 'rate_limited' | 'idempotency' | 'unavailable' | 'unknown';

/** A processor call that failed; `kind` is what the caller branches on. */
export class PaymentsProcessorError extends Error {
  readonly kind: ProcessorErrorKind;
  readonly statusCode: number | undefined;
  /** The processor's error code (e.g. `resource_missing`). */
  readonly code: string | undefined;
  readonly requestId: string | undefined;

  constructor(operation: string, kind: ProcessorErrorKind, cause: unknown, details: { statusCode?: number; code?: string; requestId?: string } = {}) {
    super(`${operation} failed (${kind}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'PaymentsProcessorError';
    this.kind = kind;
    this.statusCode = details.statusCode;
    this.code = details.code;
    this.requestId = details.requestId;
  }
}

/** Signature tolerance of processor events, seconds. */
export const EVENT_TOLERANCE_S = 300;
export const PROCESSOR_TIMEOUT_MS = 10_000;
export const PROCESSOR_MAX_NETWORK_RETRIES = 2;

/** The idempotency key of one usage report: organization + meter + reporting period, e.g. the
 * start of the report window (`2026-11-03T10:00:00.000Z`). */
export function usageReportKey(organizationId: string, meter: UsageMeter, period: string): string {
  return `usage:${meter}:${organizationId}:${period}`;
}

function processorError(operation: string, err: unknown): PaymentsProcessorError {
  if (!(err instanceof Stripe.errors.StripeError)) return new PaymentsProcessorError(operation, 'unknown', err);
  const details = { statusCode: err.statusCode, code: err.code, requestId: err.requestId };
  const kind: ProcessorErrorKind =
    err instanceof Stripe.errors.StripeInvalidRequestError ? (err.code === 'resource_missing' || err.statusCode === 404 ? 'not_found' : 'invalid_request')
    : err instanceof Stripe.errors.StripeAuthenticationError || err instanceof Stripe.errors.StripePermissionError ? 'authentication'
    : err instanceof Stripe.errors.StripeRateLimitError ? 'rate_limited'
    : err instanceof Stripe.errors.StripeIdempotencyError ? 'idempotency'
    : err instanceof Stripe.errors.StripeConnectionError || err instanceof Stripe.errors.StripeAPIError ? 'unavailable'
    : 'unknown';
  return new PaymentsProcessorError(operation, kind, err, details);
}

async function call<T>(operation: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    throw processorError(operation, err);
  }
}

const idOf = (v: string | { id: string } | null | undefined): string | null => (v == null ? null : typeof v === 'string' ? v : v.id);

function toSubscription(s: Stripe.Subscription): ProcessorSubscription {
  const first = s.items.data[0];
  return {
    id: s.id,
    status: s.status,
    customerId: idOf(s.customer),
    periodStart: first?.current_period_start ?? null,
    periodEnd: first?.current_period_end ?? null,
    items: s.items.data.map((i) => ({ id: i.id, price: idOf(i.price), quantity: i.quantity ?? null })),
    metadata: { ...s.metadata },
  };
}

/** Processor line items; a plan without any cannot be bought (the caller answers 400 before calling). */
function stripeItems(items: LineItem[], plan?: string) {
  if (items.length === 0) throw new RangeError(`plan '${plan ?? '?'}' has no line items`);
  return items.map((i) => (i.quantity === undefined ? { price: i.price } : { price: i.price, quantity: i.quantity }));
}

export interface StripeProcessorOptions {
  settings: StripeSettings;
  /** null: verifyEvent refuses every event. */
  webhookSecret: string | null;
  /** Per request, ≤ 10 s. */
  timeoutMs?: number;
}

/** The Stripe client of the settings (host/port/protocol from STRIPE_API_URL when set). */
export function createStripeClient(settings: StripeSettings, timeoutMs = PROCESSOR_TIMEOUT_MS): Stripe {
  return new Stripe(settings.apiKey, {
    timeout: Math.min(timeoutMs, PROCESSOR_TIMEOUT_MS),
    maxNetworkRetries: PROCESSOR_MAX_NETWORK_RETRIES,
    telemetry: false,
    typescript: true,
    appInfo: { name: 'llm-backend' },
    ...(settings.host === undefined ? {} : { host: settings.host }),
    ...(settings.port === undefined ? {} : { port: settings.port }),
    ...(settings.protocol === undefined ? {} : { protocol: settings.protocol }),
  });
}

export function createStripeProcessor(options: StripeProcessorOptions): PaymentsProcessor {
  const stripe = createStripeClient(options.settings, options.timeoutMs);
  const secret = options.webhookSecret;

  return {
    async createCustomer({ organizationId, target, name, email }) {
      const customer = await call('create customer', () => stripe.customers.create(
        { metadata: { organization_id: organizationId, target }, ...(name === undefined ? {} : { name }), ...(email === undefined ? {} : { email }) },
        { idempotencyKey: `customer:${target}:${organizationId}` },
      ));
      return customer.id;
    },

    async createCheckout({ customerId, plan, lineItems, successUrl, metadata, idempotencyKey }) {
      const meta = { ...metadata, plan };
      const items = stripeItems(lineItems, plan);
      const session = await call('create checkout', () => stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customerId,
        line_items: items,
        success_url: successUrl,
        metadata: meta,
        subscription_data: { metadata: meta },
      }, { idempotencyKey: idempotencyKey ?? `checkout:${randomUUID()}` }));
      if (!session.url) throw new PaymentsProcessorError('create checkout', 'unknown', new Error(`checkout session ${session.id} has no url`));
      return session.url;
    },

    async createPortal({ customerId, returnUrl }) {
      const session = await call('create portal', () => stripe.billingPortal.sessions.create(
        { customer: customerId, ...(returnUrl === undefined ? {} : { return_url: returnUrl }) },
        { idempotencyKey: `portal:${randomUUID()}` },
      ));
      return session.url;
    },

    async createSubscription({ customerId, plan, lineItems, metadata, trialDays, idempotencyKey }) {
      const items = stripeItems(lineItems, plan);
      const trial = trialDays === undefined ? {} : { trial_period_days: trialDays, trial_settings: { end_behavior: { missing_payment_method: 'cancel' as const } } };
      const s = await call('create subscription', () => stripe.subscriptions.create(
        { customer: customerId, items, metadata: { ...metadata, plan }, ...trial },
        { idempotencyKey: idempotencyKey ?? `subscription:${customerId}:${plan}` },
      ));
      return toSubscription(s);
    },

    async getSubscription(subscriptionId) {
      return toSubscription(await call('get subscription', () => stripe.subscriptions.retrieve(subscriptionId)));
    },

    async switchPlan(subscriptionId, lineItems, { plan, idempotencyKey } = {}) {
      const items = stripeItems(lineItems, plan);
      const current = await call('list subscription items', () => stripe.subscriptionItems.list({ subscription: subscriptionId, limit: 100 }).autoPagingToArray({ limit: 1000 }));
      const s = await call('switch plan', () => stripe.subscriptions.update(subscriptionId, {
        items: [...current.map((i) => ({ id: i.id, deleted: true })), ...items],
        ...(plan === undefined ? {} : { metadata: { plan } }),
      }, { idempotencyKey: idempotencyKey ?? `switch:${randomUUID()}` }));
      return toSubscription(s);
    },

    async cancel(subscriptionId) {
      const s = await call('cancel subscription', () => stripe.subscriptions.cancel(subscriptionId));
      return { status: s.status };
    },

    async reportUsage({ customerId, meter, value, timestamp, idempotencyKey }) {
      if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`usage value must be a non-negative integer, not ${value}`);
      if (value === 0) return { status: 'skipped' };
      const seconds = typeof timestamp === 'number' ? Math.floor(timestamp) : Math.floor(timestamp.getTime() / 1000);
      try {
        await stripe.billing.meterEvents.create(
          { event_name: meter, payload: { stripe_customer_id: customerId, value: String(value) }, identifier: idempotencyKey, timestamp: seconds },
          { idempotencyKey },
        );
        return { status: 'reported' };
      } catch (err) {
        const e = processorError('report usage', err);
        if (e.kind === 'idempotency') return { status: 'duplicate' };
        throw e;
      }
    },

    verifyEvent(rawBody, signatureHeader) {
      if (secret === null) throw new ProcessorEventRejected('not_configured');
      const event = parseProcessorEvent(rawBody);
      if (signatureHeader === undefined || signatureHeader === '') throw new ProcessorEventRejected('signature', 'no stripe-signature header');
      try {
        stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, EVENT_TOLERANCE_S);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeSignatureVerificationError) throw new ProcessorEventRejected('signature', err.message);
        throw err;
      }
      return event;
    },
  };
}

/** The processor of a loaded billing configuration; null when Stripe is not configured. */
export function createPaymentsProcessor(config: Pick<BillingConfig, 'stripe' | 'webhookSecret'>): PaymentsProcessor | null {
  return config.stripe === null ? null : createStripeProcessor({ settings: config.stripe, webhookSecret: config.webhookSecret });
}
