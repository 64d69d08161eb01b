// organization_subscriptions from the billing aggregate's facts (rules: rules.ts). A reset of the auth flags is a change of the organization (its version moves, so a
// flag edit decided on the old flags loses), made in the same transaction as the plan change.
import { eventTime } from '../../account-event.ts';
import type { BillingEvent, BillingState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

export function projectBilling(e: BillingEvent, _s: BillingState): SqlStatement[] {
  const p = e.payload;
  const at = eventTime(e);
  const out: SqlStatement[] = [{
    text: `INSERT INTO organization_subscriptions (organization_id, plan, active, anchor, customer_id, subscription_id, trialing, version, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8)
           ON CONFLICT (organization_id) DO UPDATE SET plan = $2, active = $3, anchor = $4, customer_id = $5, subscription_id = $6, trialing = $7,
             version = organization_subscriptions.version + 1, updated_at = $8`,
    values: [p.organization_id, p.plan, p.active, p.anchor, p.customer_id || null, p.subscription_id || null, p.trialing, at],
  }];
  if (p.processor_event_id !== '') {
    out.push({ text: 'INSERT INTO billing_processor_events (event_id, organization_id, applied_at) VALUES ($1, $2, $3)', values: [p.processor_event_id, p.organization_id, at] });
  }
  if (p.reset_auth_flags) {
    out.push({ text: `UPDATE organizations SET flags = '{}'::jsonb, updated_at = $2, version = version + 1 WHERE id = $1`, values: [p.organization_id, at] });
  }
  return out;
}
