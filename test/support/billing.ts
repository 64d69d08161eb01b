// Helpers of the billing e2e tests: signed processor events (the official library's test header,
// the same HMAC the processor sends) and white-box reads of the subscription record.
import Stripe from 'stripe';
import pg from 'pg';

export const WEBHOOK_SECRET = 'whsec_e2e_billing_secret';

const signer = new Stripe('sk_test_signer');

export interface SignedEvent { body: string; headers: Record<string, string> }

/** A processor event body signed with `secret` at `timestamp` (unix s; default now). */
export function signedEvent(event: Record<string, unknown>, opts: { secret?: string; timestamp?: number } = {}): SignedEvent {
  const body = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({
    payload: body, secret: opts.secret ?? WEBHOOK_SECRET, ...(opts.timestamp === undefined ? {} : { timestamp: opts.timestamp }),
  });
  return { body, headers: { 'Content-Type': 'application/json', 'stripe-signature': header } };
}

export function subscriptionEvent(type: string, o: { eventId: string; organizationId: string; plan: string; target?: string; subscriptionId?: string; customerId?: string; anchorAt?: number }): Record<string, unknown> {
  return {
    id: o.eventId, object: 'event', type,
    data: {
      object: {
        id: o.subscriptionId ?? 'sub_e2e', object: 'subscription', customer: o.customerId ?? 'cus_e2e', status: 'active',
        billing_cycle_anchor: o.anchorAt ?? Math.floor(Date.now() / 1000),
        metadata: { organization_id: o.organizationId, plan: o.plan, target: o.target ?? 'llm-backend' },
      },
    },
  };
}

export interface StoredSubscription { plan: string; active: boolean; anchor: number; customer_id: string | null; subscription_id: string | null; trialing: boolean; version: number }

/** The organization's subscription record as projected (white-box). */
export async function storedSubscription(databaseUrl: string, organizationId: string): Promise<StoredSubscription | undefined> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query<StoredSubscription>(
      'SELECT plan, active, anchor, customer_id, subscription_id, trialing, version FROM organization_subscriptions WHERE organization_id = $1', [organizationId]);
    return r.rows[0];
  } finally {
    await c.end();
  }
}

/** Runs one statement on the app's database (white-box set-up). */
export async function sql(databaseUrl: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return await c.query(text, values);
  } finally {
    await c.end();
  }
}
