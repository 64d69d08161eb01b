// Changes of an organization's subscription record (reference accounts §11): each one is a single
// accounts.billing.subscription_set event keyed by the organization (so it is ordered with the
// organization's auth-flag changes), appended and awaited like every account change. Every change,
// applied or not, drops the cached plan of the organization: entitlements and throttles of this
// process see the new plan at once.
import { billingKey, readOrganizationSubscription, readSubscription, type SubscriptionRecord } from '@llm/account-model';
import type { PlanResolver } from '@llm/access';
import type { Pool } from '@llm/postgres';
import type { AccountCommands, CommandOutcome } from '../../accounts/adapters/account-commands.ts';

export type SubscriptionReason = 'signup' | 'switch' | 'cancel' | 'processor' | 'admin';

/** The record after the change (every field: the event states the whole record). */
export interface SubscriptionChange extends Omit<SubscriptionRecord, 'version'> {
  reason: SubscriptionReason;
  /** The processor event this change applies (its id is applied at most once); '' for our own changes. */
  processorEventId?: string;
  /** Clears the organization's auth flags in the same projection (cancel, downgrade). */
  resetAuthFlags?: boolean;
}

export interface ChangeMeta {
  requestId: string;
  actorId?: string;
  /** The record version the change was decided on; 0 = no check (processor events: their id is the key). */
  expectedVersion: number;
}

export class BillingSubscriptions {
  constructor(private readonly commands: AccountCommands, private readonly pool: Pool, private readonly plans: PlanResolver) {}

  read(organizationId: string): Promise<SubscriptionRecord | undefined> {
    return readSubscription(this.pool, organizationId);
  }

  readWithOrganization(organizationId: string): Promise<{ exists: boolean; subscription?: SubscriptionRecord }> {
    return readOrganizationSubscription(this.pool, organizationId);
  }

  /** The current plan of an organization without a record of its own (the deployment's default). */
  async effectivePlan(organizationId: string): Promise<{ plan: string; active: boolean; anchor: number }> {
    return this.plans.planOf(organizationId);
  }

  /** Appends the change and waits for the projector's outcome (a rejection is returned, not thrown). */
  async set(organizationId: string, change: SubscriptionChange, meta: ChangeMeta): Promise<CommandOutcome> {
    try {
      return await this.commands.appendAndAwait({
        type: 'accounts.billing.subscription_set',
        key: billingKey(organizationId),
        payload: {
          organization_id: organizationId, plan: change.plan, active: change.active, anchor: change.anchor,
          customer_id: change.customerId, subscription_id: change.subscriptionId, reason: change.reason,
          processor_event_id: change.processorEventId ?? '', reset_auth_flags: change.resetAuthFlags === true, trialing: change.trialing,
        },
        meta: {
          requestId: meta.requestId, organizationId, aggregateId: billingKey(organizationId), expectedVersion: meta.expectedVersion,
          ...(meta.actorId === undefined ? {} : { actorId: meta.actorId }),
        },
      });
    } finally {
      this.plans.invalidate(organizationId);
    }
  }
}

/** The change that keeps a record as it is, for callers that alter a few fields. */
export function unchanged(r: SubscriptionRecord, reason: SubscriptionReason): SubscriptionChange {
  return { plan: r.plan, active: r.active, anchor: r.anchor, customerId: r.customerId, subscriptionId: r.subscriptionId, trialing: r.trialing, reason };
}
