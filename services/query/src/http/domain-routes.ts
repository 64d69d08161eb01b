// GET /organizations/domains/: the caller's organization's domains, from the accounts projection.
import { listDomains } from '@llm/account-model';
import { domainView } from '@llm/contracts';
import { unavailable } from '@llm/errors';
import type { Handlers, Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function domainRoutes(deps: { pool: Pool }, guards: Guards<'view'>): Handlers {
  const { pool } = deps;
  return {
    'organizations.domains.list': [...guards.view, async (req, res) => {
      const rows = await listDomains(pool, req.scope.organizationId)
        .catch((err: unknown) => { throw unavailable('accounts_unavailable', 'The account store is not available; retry shortly.', err); });
      res.json(rows.map(domainView));
    }],
  };
}
