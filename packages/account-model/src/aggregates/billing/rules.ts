// An organization's subscription record (reference accounts §11): the plan every entitlement,
// quota and throttle of the organization reads, whether it is active, the billing anchor day, and
// the payment processor's ids. Keyed `organization:<id>` like the organization's other events, so
// a reset of the auth flags (cancel, downgrade) is ordered with the flag changes themselves. A
// change caused by a processor event carries its id and is a fact at most once.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, checkVersion, reject, type Decision } from '../../decision.ts';

export type BillingEventType = 'accounts.billing.subscription_set';
export type BillingEvent = AccountEvent<BillingEventType>;

export interface SubscriptionRecord {
  plan: string;
  active: boolean;
  /** Day of month 1–31 the billing period starts on. */
  anchor: number;
  customerId: string;
  subscriptionId: string;
  trialing: boolean;
  version: number;
}

export interface BillingState {
  organization?: { id: string };
  /** Absent: the organization predates plans per organization (the default plan applies). */
  subscription?: SubscriptionRecord;
  /** Processor event ids already applied (the loader reads only the deciding event's own). */
  appliedProcessorEvents: string[];
}

export const BILLING_REJECTIONS = {
  billing_organization_not_found: 'not_found',
  billing_subscription_changed: 'conflict',
  billing_event_applied: 'conflict',
  billing_record_invalid: 'invalid',
} as const;
export type BillingRejection = keyof typeof BILLING_REJECTIONS;

export const isAnchorDay = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= 31;

export const billingRules = rules({
  eventTypes: ['accounts.billing.subscription_set'],
  rejections: BILLING_REJECTIONS,

  decide(e: BillingEvent, s: BillingState): Decision<BillingRejection> {
    if (!s.organization) return reject('billing_organization_not_found', 'Organization not found');
    const p = e.payload;
    if (p.plan === '' || !isAnchorDay(p.anchor)) return reject('billing_record_invalid', 'A subscription needs a plan and an anchor day between 1 and 31.');
    if (p.processor_event_id !== '' && s.appliedProcessorEvents.includes(p.processor_event_id)) {
      return reject('billing_event_applied', `Processor event ${p.processor_event_id} was applied already.`);
    }
    const version = checkVersion('billing_subscription_changed', 'subscription', e.expectedVersion, s.subscription?.version ?? 0);
    if (version.status === 'rejected') return version;
    return accepted;
  },
});

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** An organization's plan and subscription (the billing aggregate shares the organization's order). */
export { organizationKey as billingKey } from '../organization/rules.ts';
