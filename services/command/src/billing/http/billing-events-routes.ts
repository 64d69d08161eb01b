// POST /billing/payments/events/ and /billing/stripe/events/ (reference accounts §11): the payments
// processor tells us about subscriptions. Public; trust comes from the signature over the exact bytes
// received, so the route reads its own bounded raw body (rawBody in the route table). A verified
// event becomes at most one accounts.billing.subscription_set carrying the processor event's id: a
// redelivery is answered 200 and changes nothing. Unlike the reference, an event is refused (503,
// so the processor retries) while no signing secret is configured, and nothing here answers a 500.
import type { RequestHandler, Response } from 'express';
import { rejectionError, type SubscriptionRecord } from '@llm/account-model';
import {
  interpretProcessorEvent, ProcessorEventRejected, type BillingConfig, type PaymentsProcessor, type ProcessorAction, type ProcessorEvent,
} from '@llm/billing';
import { AppError } from '@llm/errors';
import { readBoundedBody, type Handlers, type Guards } from '@llm/http';

import type { BillingSubscriptions, SubscriptionChange } from '../adapters/billing-subscriptions.ts';

export interface BillingEventRouteDeps {
  config: BillingConfig;
  processor: PaymentsProcessor | null;
  subscriptions: BillingSubscriptions;
  planSlugs: readonly string[];
  /** Largest event body read (processor events are a few KB). */
  maxBodyBytes?: number;
  now?: () => Date;
}

export const MAX_EVENT_BYTES = 1024 * 1024;

const answer = (res: Response, status: number, body: unknown): void => { res.status(status).json(body); };
const skip = (res: Response, message: string): void => answer(res, 200, { status: 'skip', message });

/** The record after the action, or why the event does not apply to this record (answered 200 skip). */
function changeOf(action: ProcessorAction, event: ProcessorEvent, current: SubscriptionRecord, freePlan: string): SubscriptionChange | string {
  const base: SubscriptionChange = {
    plan: current.plan, active: current.active, anchor: current.anchor, customerId: action.customerId ?? current.customerId,
    subscriptionId: current.subscriptionId, trialing: current.trialing, reason: 'processor', processorEventId: action.processorEventId,
  };
  // An event about another subscription than the organization's current one (a late event of a
  // subscription replaced meanwhile) must not change the current one.
  const stale = action.processorSubscriptionId !== null && current.subscriptionId !== '' && action.processorSubscriptionId !== current.subscriptionId;
  switch (action.type) {
    case 'subscription_created':
      return { ...base, plan: action.plan, subscriptionId: action.subscriptionId, anchor: action.anchor, active: true, trialing: event.data.object.status === 'trialing' };
    case 'subscription_paused':
    case 'subscription_resumed':
      // The reference answers 500 here; an invoice of an organization on the free plan has nothing to change.
      if (current.plan === freePlan) return 'Organization is on the free plan';
      if (stale) return 'Subscription mismatch';
      return { ...base, active: action.active };
    case 'subscription_cancelled':
      if (stale) return 'Subscription mismatch';
      return {
        ...base, plan: action.plan, subscriptionId: '', active: true, trialing: false, resetAuthFlags: true,
        anchor: current.plan === freePlan ? current.anchor : action.anchor,
      };
  }
}

export function billingEventRoutes(deps: BillingEventRouteDeps, _guards: Guards<never>): Handlers {
  const { config, processor, subscriptions } = deps;
  const now = deps.now ?? (() => new Date());
  const limit = deps.maxBodyBytes ?? MAX_EVENT_BYTES;

  const receive: RequestHandler = async (req, res) => {
    // Read (and bound) the body whatever happens next, so the connection stays usable.
    const raw = await readBoundedBody(req, limit);
    if (!processor) { answer(res, 200, { status: 'ok', message: 'Stripe not configured' }); return; }
    let event: ProcessorEvent;
    try {
      event = processor.verifyEvent(raw, req.header('stripe-signature'));
    } catch (err) {
      if (!(err instanceof ProcessorEventRejected)) throw err;
      if (err.reason === 'not_configured') {
        req.log.error('billing: a processor event arrived but STRIPE_WEBHOOK_SECRET is not set; refused (the processor retries)');
        answer(res, 503, { status: 'error', message: 'Processor events are not accepted: STRIPE_WEBHOOK_SECRET is not configured' });
        return;
      }
      answer(res, err.status, err.body);
      return;
    }
    const outcome = interpretProcessorEvent(event, { target: config.target, planSlugs: deps.planSlugs, freePlan: config.freePlan, now: now() });
    if (outcome.kind !== 'apply') { answer(res, outcome.status, outcome.body); return; }
    const action = outcome.action;
    const { exists, subscription } = await subscriptions.readWithOrganization(action.organizationId);
    if (!exists) { answer(res, 404, { status: 'error', message: 'Organization not found' }); return; }
    // An organization created before plans per organization has no record yet: it is on the default plan.
    const current: SubscriptionRecord = subscription ?? {
      ...(await subscriptions.effectivePlan(action.organizationId)), customerId: '', subscriptionId: '', trialing: false, version: 0,
    };
    const change = changeOf(action, event, current, config.freePlan);
    if (typeof change === 'string') {
      req.log.info({ event_id: event.id, type: event.type, organization_id: action.organizationId }, `billing: processor event skipped (${change})`);
      skip(res, change);
      return;
    }
    const outcomeOfSet = await subscriptions.set(action.organizationId, change, { requestId: req.id, actorId: 'processor', expectedVersion: 0 });
    if (outcomeOfSet.status === 'rejected') {
      // A redelivery (the processor retries until it sees a 2xx): already applied, nothing changes.
      if (outcomeOfSet.code === 'billing_event_applied') { answer(res, 200, { status: 'success' }); return; }
      if (outcomeOfSet.code === 'billing_organization_not_found') { answer(res, 404, { status: 'error', message: 'Organization not found' }); return; }
      throw rejectionError(outcomeOfSet);
    }
    req.log.info({ event_id: event.id, type: event.type, organization_id: action.organizationId, plan: change.plan }, 'billing: processor event applied');
    answer(res, 200, { status: 'success' });
  };

  const guarded: RequestHandler = async (req, res, next) => {
    try {
      await receive(req, res, next);
    } catch (err) {
      // A body over the bound: 413 and the connection closes (the rest is not read).
      if (err instanceof AppError && err.kind === 'too_large') res.setHeader('Connection', 'close');
      throw err;
    }
  };
  return { 'billing.payments.events': guarded, 'billing.stripe.events': guarded };
}
