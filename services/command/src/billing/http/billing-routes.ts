// The caller's billing (reference accounts §11): checkout and customer portal at the payments
// processor, the plans on offer, plan switch, the subscription and its cancellation, catalog and
// pricing. Reads need view_billing, writes edit_billing (the guards). Bodies keep §11's two shapes:
// `{"detail":…}` (AppError) and `{"status":"error","message":…}`. A processor failure is a 502, never
// a 500; a change of the record is one billing event (services/command/src/billing/adapters/billing-subscriptions.ts).
import type { Request, RequestHandler, Response } from 'express';
import { rejectionError, type SubscriptionRecord } from '@llm/account-model';
import { planHasFlag, type AccessCatalog } from '@llm/access';
import {
  lineItemsFor, utcDayOfMonth, PaymentsProcessorError,
  type BillingConfig, type PaymentsProcessor,
} from '@llm/billing';
import { billingCheckoutQuery, billingSwitchQuery } from '@llm/contracts';
import { badGateway, invalid, notFound, type AppError } from '@llm/errors';
import { validate, type Handlers, type Guards } from '@llm/http';
import { periodRange } from '@llm/quota';

import { unchanged, type BillingSubscriptions, type SubscriptionChange } from '../adapters/billing-subscriptions.ts';

export interface BillingRouteDeps {
  config: BillingConfig;
  /** null = Stripe not configured. */
  processor: PaymentsProcessor | null;
  subscriptions: BillingSubscriptions;
  access: Pick<AccessCatalog, 'plans'>;
  now?: () => Date;
}

const NOT_CONFIGURED = { status: 'ok', message: 'Stripe not configured' } as const;
const LOCAL_NOT_FOUND = 'Subscription (Agenta) not found';

const checkoutQuery = billingCheckoutQuery;
const switchQuery = billingSwitchQuery;

const statusError = (res: Response, status: number, message: string): void => { res.status(status).json({ status: 'error', message }); };

/** A failed processor call: 502 with our words (the processor's body is logged, never echoed). */
export function processorFailure(err: unknown, operation: string): AppError {
  return badGateway('payments_processor_failed', `The payments processor could not ${operation}; retry later.`, err);
}

async function atProcessor<T>(operation: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    throw processorFailure(err, operation);
  }
}

const notPurchasable = (plan: string): AppError => invalid('plan_not_purchasable', `Plan '${plan}' is not available for purchase (no Stripe line items configured).`);

export function billingRoutes(deps: BillingRouteDeps, guards: Guards<'view' | 'edit'>): Handlers {
  const { config, processor, subscriptions } = deps;
  const now = deps.now ?? (() => new Date());
  const isPlan = (slug: string): boolean => Object.hasOwn(deps.access.plans, slug);
  const meta = (req: Request, r: SubscriptionRecord | undefined) => ({ requestId: req.id, actorId: req.scope.userId, expectedVersion: r?.version ?? 0 });

  /** Appends a change of the caller's record; a lost race or a refused change is its HTTP error. */
  const commit = async (req: Request, current: SubscriptionRecord | undefined, change: SubscriptionChange): Promise<void> => {
    const outcome = await subscriptions.set(req.scope.organizationId, change, meta(req, current));
    if (outcome.status === 'rejected') throw rejectionError(outcome);
  };

  const checkout: RequestHandler = async (req, res) => {
    const q = validate(checkoutQuery, req.query, 'query');
    if (!processor) { res.json(NOT_CONFIGURED); return; }
    if (!isPlan(q.plan)) throw invalid('invalid_plan', 'Invalid plan');
    const lineItems = lineItemsFor(config.pricing, q.plan);
    if (lineItems.length === 0) throw notPurchasable(q.plan);
    const orgId = req.scope.organizationId;
    const current = await subscriptions.read(orgId);
    if (!current) { statusError(res, 404, LOCAL_NOT_FOUND); return; }
    if (current.subscriptionId !== '') { statusError(res, 400, 'Subscription (Stripe) already exists'); return; }
    let customerId = current.customerId;
    if (customerId === '') {
      // The customer id is kept on the record before the checkout exists, so the subscription the
      // checkout creates (its event names the customer) and the portal find the same customer.
      customerId = await atProcessor('create the customer', () => processor.createCustomer({ organizationId: orgId, target: config.target }));
      await commit(req, current, { ...unchanged(current, 'processor'), customerId });
    }
    const url = await atProcessor('create the checkout', () => processor.createCheckout({
      customerId, plan: q.plan, lineItems, successUrl: q.success_url, metadata: { organization_id: orgId, target: config.target },
    }));
    res.json({ checkout_url: url });
  };

  const portal: RequestHandler = async (req, res) => {
    if (!processor) { res.json(NOT_CONFIGURED); return; }
    const current = await subscriptions.read(req.scope.organizationId);
    if (!current) { statusError(res, 404, 'Subscription not found'); return; }
    if (current.customerId === '') { statusError(res, 404, 'Access denied: please subscribe to a plan to access the portal'); return; }
    const url = await atProcessor('create the portal session', () => processor.createPortal({ customerId: current.customerId }));
    res.json({ portal_url: url });
  };

  return {
    'billing.payments.checkouts': [...guards.edit, checkout],
    'billing.stripe.checkouts': [...guards.edit, checkout],
    'billing.payments.portals': [...guards.edit, portal],
    'billing.stripe.portals': [...guards.edit, portal],

    'billing.plans.switch': [...guards.edit, async (req, res) => {
      const q = validate(switchQuery, req.query, 'query');
      if (!isPlan(q.plan)) throw invalid('invalid_plan', 'Invalid plan');
      const current = await subscriptions.read(req.scope.organizationId);
      if (!current) throw notFound('subscription_not_found', LOCAL_NOT_FOUND);
      if (!processor) throw invalid('billing_not_configured', 'Stripe not configured');
      if (current.plan === config.freePlan) throw invalid('on_free_plan', 'The organization is on the free plan: subscribe to a plan through a checkout first.');
      if (current.plan === q.plan) throw invalid('same_plan', `The organization is already on plan '${q.plan}'.`);
      if (current.subscriptionId === '') throw invalid('no_processor_subscription', 'Subscription (Stripe) not found');
      const lineItems = lineItemsFor(config.pricing, q.plan);
      if (lineItems.length === 0) throw notPurchasable(q.plan);
      await atProcessor('switch the plan', () => processor.switchPlan(current.subscriptionId, lineItems, { plan: q.plan }));
      // A plan without the `access` flag cannot keep auth policies that only it could set.
      const resetAuthFlags = planHasFlag(deps.access, current.plan, 'access') && !planHasFlag(deps.access, q.plan, 'access');
      await commit(req, current, { ...unchanged(current, 'switch'), plan: q.plan, resetAuthFlags });
      res.json({ status: 'success' });
    }],

    'billing.subscription': [...guards.view, async (req, res) => {
      const current = await subscriptions.read(req.scope.organizationId);
      if (!current || current.plan === '') { statusError(res, 404, LOCAL_NOT_FOUND); return; }
      if (current.plan === config.freePlan) { res.json({ plan: current.plan, type: 'standard' }); return; }
      if (processor) {
        if (current.subscriptionId === '') { statusError(res, 404, LOCAL_NOT_FOUND); return; }
        let s;
        try {
          s = await processor.getSubscription(current.subscriptionId);
        } catch (err) {
          req.log.warn({ err, subscription_id: current.subscriptionId }, 'billing: processor subscription fetch failed');
          statusError(res, 502, 'Subscription (Stripe) not found');
          return;
        }
        res.json({
          plan: current.plan, type: 'standard',
          ...(s.periodStart === null ? {} : { period_start: s.periodStart }),
          ...(s.periodEnd === null ? {} : { period_end: s.periodEnd }),
          free_trial: s.status === 'trialing',
        });
        return;
      }
      // No processor: the period the anchor gives (clamped to the month's length, e.g. 31 -> Feb 28).
      const range = periodRange(now(), 'monthly', current.anchor)!;
      res.json({
        plan: current.plan, type: 'custom',
        period_start: Date.parse(`${range.from}T00:00:00Z`) / 1000, period_end: Date.parse(`${range.to}T00:00:00Z`) / 1000, free_trial: false,
      });
    }],

    'billing.subscription.cancel': [...guards.edit, async (req, res) => {
      const current = await subscriptions.read(req.scope.organizationId);
      if (!current) throw notFound('subscription_not_found', LOCAL_NOT_FOUND);
      if (current.subscriptionId === '' || !processor) {
        // Nothing to cancel at the processor: fine on the free plan; a paid plan without a processor
        // subscription (granted by an operator) is not the caller's to end here.
        if (current.plan === config.freePlan) { res.json({ status: 'success' }); return; }
        if (current.subscriptionId === '') throw notFound('subscription_not_found', 'Subscription (Stripe) not found');
      }
      if (processor && current.subscriptionId !== '') {
        const id = current.subscriptionId;
        try {
          await processor.cancel(id);
        } catch (err) {
          // Already gone at the processor (cancelled there): record the end here all the same.
          if (!(err instanceof PaymentsProcessorError && err.kind === 'not_found')) throw processorFailure(err, 'cancel the subscription');
        }
      }
      await commit(req, current, {
        ...unchanged(current, 'cancel'), plan: config.freePlan, subscriptionId: '', active: true, trialing: false,
        anchor: current.plan === config.freePlan ? current.anchor : utcDayOfMonth(now()), resetAuthFlags: true,
      });
      res.json({ status: 'success' });
    }],

  };
}
