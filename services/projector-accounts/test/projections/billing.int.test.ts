// The billing projection's SQL against the real Postgres: the plan an account is provisioned with
// becomes its subscription record (anchored on the day of the event); after each billing event the
// state the reader loads is what `evolve` says; a processor event applies once; a reset of the auth
// flags clears the organization's flags and moves its version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { billing, type AccountEvent, type BillingEvent } from '@llm/account-model';
import { loadBillingState, readOrganization, readSubscription } from '@llm/accounts-read';
import type { BillingSubscriptionSet } from '@llm/events';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const DAY_17 = Date.UTC(2026, 4, 17, 23, 59) * 1000;

describe('billing projection (Postgres)', () => {
  it('stores what evolve says, event by event', async () => {
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
    const history = [
      set({ processor_event_id: 'evt_a' }, 1),
      set({ processor_event_id: 'evt_a', plan: 'cloud_v0_business' }),  // rejected: applied already
      set({ active: false }, 1),                                         // rejected: stale version
      set({ active: false, processor_event_id: 'evt_b' }, 2),
      set({ organization_id: randomUUID() }),                            // rejected: no such organization
      set({ plan: 'cloud_v0_hobby', customer_id: 'cus_1', subscription_id: '', reason: 'cancel', reset_auth_flags: true }),
    ];
    let expected = await loadBillingState(db.pool, history[0] as BillingEvent);
    const verdicts: string[] = [];
    for (const e of history) {
      const loaded = await loadBillingState(db.pool, e as BillingEvent);
      const decision = billing.decide(e as BillingEvent, loaded);
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      verdicts.push(decision.status === 'accepted' ? 'ok' : decision.code);
      if (decision.status === 'accepted') {
        expected = billing.evolve(expected, e as BillingEvent);
        expect((await loadBillingState(db.pool, e as BillingEvent)).subscription).toEqual(expected.subscription);
      }
    }
    expect(verdicts).toEqual(['ok', 'billing_event_applied', 'billing_subscription_changed', 'ok', 'billing_organization_not_found', 'ok']);
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
