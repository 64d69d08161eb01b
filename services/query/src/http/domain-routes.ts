// GET /organizations/domains/: the caller's organization's domains, from the accounts projection.
import type { RequestHandler } from 'express';
import { listDomains } from '@llm/account-model';
import { domainView } from '@llm/contracts';
import { unavailable } from '@llm/errors';
import type { Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function domainRoutes(pool: Pool, guard: RequestHandler[]): Handlers {
  return {
    'organizations.domains.list': [...guard, async (req, res) => {
      const rows = await listDomains(pool, req.scope.organizationId)
        .catch((err: unknown) => { throw unavailable('accounts_unavailable', 'The account store is not available; retry shortly.', err); });
      res.json(rows.map(domainView));
    }],
  };
}
