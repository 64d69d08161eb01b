// The billing projection's SQL against the real Postgres: the plan an account is provisioned with
// becomes its subscription record (anchored on the day of the event); after each billing event the
// state the loader returns is written out (the record with its version, the processor event once
// applied); a processor event applies once; a reset of the auth flags clears the organization's
// flags and moves its version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { type AccountEvent, type BillingState, readOrganization, readSubscription, type SubscriptionRecord } from '@llm/account-model';
import type { BillingSubscriptionSet } from '@llm/events';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const DAY_17 = Date.UTC(2026, 4, 17, 23, 59) * 1000;

describe('billing projection (Postgres)', () => {
  it('given a provisioned plan, when the processor and a cancellation set the subscription, then the loader returns each record with its next version', async () => {
    const hex = randomBytes(4).toString('hex');
    const [userId, orgId] = [randomUUID(), randomUUID()];
    await db.apply(ev('accounts.account.provisioned', {
      user: { id: userId, email: `${hex}@x.org`, name: '', username: hex }, organization: { id: orgId, name: 'A', slug: `a-${hex}`, plan: 'cloud_v0_hobby' },
      workspace: { id: randomUUID(), name: 'W', slug: 'w' }, project: { id: randomUUID(), name: 'P', slug: 'p' }, api_key: null,
    }, { timeUs: DAY_17 }));
    expect(await readSubscription(db.pool, orgId)).toEqual({ plan: 'cloud_v0_hobby', active: true, anchor: 17, customerId: '', subscriptionId: '', trialing: false, version: 1 });
    await db.apply(ev('accounts.organization.updated', { organization_id: orgId, name: 'A', description: '', flags_json: '{"allow_root":true,"allow_email":false}' }));

    const set = (o: Partial<BillingSubscriptionSet>, expectedVersion = 0): AccountEvent => ev('accounts.billing.subscription_set', {
      organization_id: orgId, plan: 'cloud_v0_pro', active: true, anchor: 3, customer_id: 'cus_1', subscription_id: 'sub_1',
      reason: 'processor', processor_event_id: '', reset_auth_flags: false, trialing: false, ...o,
    }, { expectedVersion });
    const organization = { id: orgId };
    const pro = (active: boolean, version: number): SubscriptionRecord =>
      ({ plan: 'cloud_v0_pro', active, anchor: 3, customerId: 'cus_1', subscriptionId: 'sub_1', trialing: false, version });
    // Each event, its verdict, and the state the loader returns for it afterwards (the processor event listed once applied).
    const steps: Array<[AccountEvent, string, BillingState]> = [
      [set({ processor_event_id: 'evt_a' }, 1), 'ok', { organization, subscription: pro(true, 2), appliedProcessorEvents: ['evt_a'] }],
      [set({ processor_event_id: 'evt_a', plan: 'cloud_v0_business' }), 'billing_event_applied', { organization, subscription: pro(true, 2), appliedProcessorEvents: ['evt_a'] }],
      [set({ active: false }, 1), 'billing_subscription_changed', { organization, subscription: pro(true, 2), appliedProcessorEvents: [] }],
      [set({ active: false, processor_event_id: 'evt_b' }, 2), 'ok', { organization, subscription: pro(false, 3), appliedProcessorEvents: ['evt_b'] }],
      [set({ organization_id: randomUUID() }), 'billing_organization_not_found', { appliedProcessorEvents: [] }],
      [set({ plan: 'cloud_v0_hobby', customer_id: 'cus_1', subscription_id: '', reason: 'cancel', reset_auth_flags: true }), 'ok', {
        organization, appliedProcessorEvents: [],
        subscription: { plan: 'cloud_v0_hobby', active: true, anchor: 3, customerId: 'cus_1', subscriptionId: '', trialing: false, version: 4 },
      }],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) expect(await db.step('billing', e), `step ${i}`).toEqual({ verdict, after });
    expect(await readSubscription(db.pool, orgId)).toEqual({ plan: 'cloud_v0_hobby', active: true, anchor: 3, customerId: 'cus_1', subscriptionId: '', trialing: false, version: 4 });
    const org = await readOrganization(db.pool, orgId);
    expect(org).toMatchObject({ flags: {}, version: 3 }); // 1 at creation, 2 after the flag edit, 3 after the reset
  });

  it('when an account is provisioned without a plan (recorded before plans per organization), then it has no record', async () => {
    const hex = randomBytes(4).toString('hex');
    const orgId = randomUUID();
    await db.apply(ev('accounts.account.provisioned', {
      user: { id: randomUUID(), email: `${hex}@x.org`, name: '', username: hex }, organization: { id: orgId, name: 'A', slug: `b-${hex}` },
      workspace: { id: randomUUID(), name: 'W', slug: 'w' }, project: { id: randomUUID(), name: 'P', slug: 'p' }, api_key: null,
    }));
    expect(await readSubscription(db.pool, orgId)).toBeUndefined();
  });
});
