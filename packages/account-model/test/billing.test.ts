// Given/when/then of the billing aggregate: an organization's subscription record changes only on an
// organization that exists, with a plan and an anchor day, at the version read, and a processor
// event is a fact at most once.
import { describe, expect, it } from 'vitest';
import { billing, type AccountEvent, type BillingState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

const O1 = '00000000-0000-4000-8000-0000000000a1';
const nothing: BillingState = { appliedProcessorEvents: [] };
const world: BillingState = { organization: { id: O1 }, appliedProcessorEvents: [] };
type Payload = AccountEvent<'accounts.billing.subscription_set'>['payload'];
const set = (o: Partial<Payload> = {}, expectedVersion = 0) => ev('accounts.billing.subscription_set', {
  organization_id: O1, plan: 'cloud_v0_pro', active: true, anchor: 15, customer_id: 'cus_1', subscription_id: 'sub_1',
  reason: 'processor', processor_event_id: '', reset_auth_flags: false, trialing: false, ...o,
}, { expectedVersion });
/** The organization on plan cloud_v0_business by processor event evt_1 (record version 1). */
const afterEvt1: BillingState = {
  organization: { id: O1 }, appliedProcessorEvents: ['evt_1'],
  subscription: { plan: 'cloud_v0_business', active: true, anchor: 15, customerId: 'cus_1', subscriptionId: 'sub_1', trialing: false, version: 1 },
};
/** The organization's record at version 2 (set twice, no processor event). */
const atVersion2: BillingState = {
  organization: { id: O1 }, appliedProcessorEvents: [],
  subscription: { plan: 'cloud_v0_pro', active: false, anchor: 15, customerId: 'cus_1', subscriptionId: 'sub_1', trialing: false, version: 2 },
};

describe('billing aggregate', () => {
  it('given an organization without a record, when a plan is set, then it is accepted', () => {
    expect(decideOn(billing, world, set()).status).toBe('accepted');
  });

  it('when the organization is unknown, then billing_organization_not_found', () => {
    expect(decideOn(billing, nothing, set())).toMatchObject({ code: 'billing_organization_not_found' });
  });

  it('when the plan is empty or the anchor is outside 1–31, then billing_record_invalid', () => {
    for (const bad of [{ plan: '' }, { anchor: 0 }, { anchor: 32 }, { anchor: 1.5 }]) {
      expect(decideOn(billing, world, set(bad))).toMatchObject({ code: 'billing_record_invalid' });
    }
  });

  it('given a processor event applied, when the same event comes again, then billing_event_applied; another event applies', () => {
    expect(decideOn(billing, afterEvt1, set({ processor_event_id: 'evt_1', plan: 'cloud_v0_hobby' }))).toMatchObject({ code: 'billing_event_applied' });
    expect(decideOn(billing, afterEvt1, set({ processor_event_id: 'evt_2', plan: 'cloud_v0_hobby' })).status).toBe('accepted');
  });

  it('given a record at version 2, a change read at version 2 applies; one read at version 1 is billing_subscription_changed', () => {
    expect(decideOn(billing, atVersion2, set({}, 2)).status).toBe('accepted');
    expect(decideOn(billing, atVersion2, set({}, 1))).toMatchObject({ code: 'billing_subscription_changed', details: { expected_version: 1, current_version: 2 } });
  });
});
