// GET /billing/usage (reference accounts §11): the organization's usage against its own plan's
// quotas, from the exact meters (projector-usage) and the accounts projection. Needs view_billing.
import type { RequestHandler } from 'express';
import type { AccessCatalog, PlanResolver } from '@llm/access';
import type { Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { usageReport } from '@llm/quota';

export function billingRoutes(deps: { pool: Pool; access: AccessCatalog; plans: PlanResolver }, guards: RequestHandler[]): Handlers {
  return {
    'billing.usage': [...guards, async (req, res) => {
      const { plan, anchor } = await deps.plans.planOf(req.scope.organizationId);
      res.json(await usageReport(deps.pool, deps.access.plans[plan], req.scope, anchor));
    }],
  };
}
