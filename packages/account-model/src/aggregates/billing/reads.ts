// The one reader of organization_subscriptions and billing_processor_events (0012-billing.sql): the
// billing aggregate's state and the subscription record every plan lookup reads.
import type { BillingEvent, BillingState, SubscriptionRecord } from './rules.ts';
import { createPlanResolver, type AccessCatalog, type PlanResolver } from '@llm/access';
import { asUuid, type Queryable } from '../../queryable.ts';

interface Row {
  plan: string; active: boolean; anchor: number; customer_id: string | null; subscription_id: string | null; trialing: boolean; version: number;
}

/** An organization's subscription record; undefined when it has none (created before plans per organization) or is unknown. */
export async function readSubscription(q: Queryable, organizationId: string): Promise<SubscriptionRecord | undefined> {
  const id = asUuid(organizationId);
  if (id === null) return undefined;
  const r = await q.query<Row>(
    'SELECT plan, active, anchor, customer_id, subscription_id, trialing, version FROM organization_subscriptions WHERE organization_id = $1', [id]);
  const row = r.rows[0];
  return row && {
    plan: row.plan, active: row.active, anchor: row.anchor, customerId: row.customer_id ?? '', subscriptionId: row.subscription_id ?? '',
    trialing: row.trialing, version: row.version,
  };
}

/** Whether an organization exists, with its subscription record. */
export async function readOrganizationSubscription(q: Queryable, organizationId: string): Promise<{ exists: boolean; subscription?: SubscriptionRecord }> {
  const id = asUuid(organizationId);
  if (id === null) return { exists: false };
  const org = await q.query('SELECT 1 FROM organizations WHERE id = $1', [id]);
  if (org.rowCount === 0) return { exists: false };
  return { exists: true, subscription: await readSubscription(q, id) };
}

/** The organization whose processor customer this is (processor events name customers). */
export async function organizationOfCustomer(q: Queryable, customerId: string): Promise<string | undefined> {
  const r = await q.query<{ id: string }>('SELECT organization_id::text AS id FROM organization_subscriptions WHERE customer_id = $1 LIMIT 1', [customerId]);
  return r.rows[0]?.id;
}

export async function loadBillingState(q: Queryable, e: BillingEvent): Promise<BillingState> {
  const { exists, subscription } = await readOrganizationSubscription(q, e.payload.organization_id);
  const appliedProcessorEvents: string[] = [];
  if (e.payload.processor_event_id !== '') {
    const r = await q.query('SELECT 1 FROM billing_processor_events WHERE event_id = $1', [e.payload.processor_event_id]);
    if ((r.rowCount ?? 0) > 0) appliedProcessorEvents.push(e.payload.processor_event_id);
  }
  return { ...(exists ? { organization: { id: asUuid(e.payload.organization_id)! } } : {}), ...(subscription ? { subscription } : {}), appliedProcessorEvents };
}

/** The plan resolver every side uses: the organization's own record, cached (see @llm/access). */
export function postgresPlanResolver(q: Queryable, access: Pick<AccessCatalog, 'defaultPlan' | 'planCacheMs'>): PlanResolver {
  return createPlanResolver({ read: (id) => readSubscription(q, id), defaultPlan: access.defaultPlan, ttlMs: access.planCacheMs });
}

/** The organizations billed through a processor customer, with their billing anchor (the usage reporter's list). */
export async function billedOrganizations(q: Queryable): Promise<Array<{ id: string; customer: string; anchor: number }>> {
  const r = await q.query<{ id: string; customer: string; anchor: number }>(
    `SELECT organization_id::text AS id, customer_id AS customer, anchor FROM organization_subscriptions WHERE customer_id IS NOT NULL AND customer_id <> ''`);
  return r.rows;
}

