// The billing reads that need no processor credential (reference accounts §11), all with
// view_billing: GET /billing/usage — the organization's usage against its own plan's quotas, from
// the exact meters (projector-usage) and the accounts projection; GET /billing/plans, /catalog and
// /pricing — the configured catalog (BILLING_CATALOG / BILLING_PRICING), plans with the current one
// marked. GET /billing/subscription asks the processor and stays on the command side.
import type { AccessCatalog, PlanResolver } from '@llm/access';
import { readSubscription } from '@llm/account-model';
import { catalogAnswer, plansAnswer, pricingAnswer, type CatalogConfig } from '@llm/billing';
import type { Handlers, Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { usageReport } from '@llm/quota';

export function billingRoutes(deps: { pool: Pool; access: AccessCatalog; plans: PlanResolver; catalog: CatalogConfig }, guards: Guards<'view'>): Handlers {
  const { catalog } = deps;
  return {
    'billing.plans': [...guards.view, async (req, res) => {
      const current = await readSubscription(deps.pool, req.scope.organizationId);
      res.json(plansAnswer(catalog, current?.plan ?? null));
    }],
    'billing.catalog': [...guards.view, (_req, res) => { res.json(catalogAnswer(catalog)); }],
    'billing.pricing': [...guards.view, (_req, res) => { res.json(pricingAnswer(catalog)); }],
    'billing.usage': [...guards.view, async (req, res) => {
      const { plan, anchor } = await deps.plans.planOf(req.scope.organizationId);
      res.json(await usageReport(deps.pool, deps.access.plans[plan], req.scope, anchor));
    }],
  };
}
