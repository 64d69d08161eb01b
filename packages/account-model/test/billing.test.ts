// Given/when/then of the billing aggregate: an organization's subscription record changes only on an
// organization that exists, with a plan and an anchor day, at the version read, and a processor
// event is a fact at most once.
import { describe, expect, it } from 'vitest';
import { billing, type BillingState } from '../src/aggregates/billing.ts';
import type { AccountEvent } from '../src/account-event.ts';
import { ev, given } from './support/given.ts';

const O1 = '00000000-0000-4000-8000-0000000000a1';
const world: BillingState = { organization: { id: O1 }, appliedProcessorEvents: [] };
type Payload = AccountEvent<'accounts.billing.subscription_set'>['payload'];
const set = (o: Partial<Payload> = {}, expectedVersion = 0) => ev('accounts.billing.subscription_set', {
  organization_id: O1, plan: 'cloud_v0_pro', active: true, anchor: 15, customer_id: 'cus_1', subscription_id: 'sub_1',
  reason: 'processor', processor_event_id: '', reset_auth_flags: false, trialing: false, ...o,
}, { expectedVersion });

describe('billing aggregate', () => {
  it('given an organization without a record, when a plan is set, then the record exists at version 1', () => {
    const t = given(billing, [], world).when(set());
    expect(t.decision.status).toBe('accepted');
    expect(t.state.subscription).toEqual({ plan: 'cloud_v0_pro', active: true, anchor: 15, customerId: 'cus_1', subscriptionId: 'sub_1', trialing: false, version: 1 });
  });

  it('when the organization is unknown, then billing_organization_not_found', () => {
    expect(given(billing, []).when(set()).decision).toMatchObject({ code: 'billing_organization_not_found' });
  });

  it('when the plan is empty or the anchor is outside 1–31, then billing_record_invalid', () => {
    for (const bad of [{ plan: '' }, { anchor: 0 }, { anchor: 32 }, { anchor: 1.5 }]) {
      expect(given(billing, [], world).when(set(bad)).decision).toMatchObject({ code: 'billing_record_invalid' });
    }
  });

  it('given a processor event applied, when the same event comes again, then billing_event_applied and nothing changes', () => {
    const h = given(billing, [set({ processor_event_id: 'evt_1', plan: 'cloud_v0_business' })], world);
    const again = h.when(set({ processor_event_id: 'evt_1', plan: 'cloud_v0_hobby' }));
    expect(again.decision).toMatchObject({ code: 'billing_event_applied' });
    expect(again.state.subscription?.plan).toBe('cloud_v0_business');
    expect(h.when(set({ processor_event_id: 'evt_2', plan: 'cloud_v0_hobby' })).decision.status).toBe('accepted');
  });

  it('given a record at version 2, a change read at version 2 applies; one read at version 1 is billing_subscription_changed', () => {
    const h = given(billing, [set(), set({ active: false }, 1)], world);
    expect(h.state.subscription?.version).toBe(2);
    expect(h.when(set({}, 2)).decision.status).toBe('accepted');
    expect(h.when(set({}, 1)).decision).toMatchObject({ code: 'billing_subscription_changed', details: { expected_version: 1, current_version: 2 } });
  });
});
