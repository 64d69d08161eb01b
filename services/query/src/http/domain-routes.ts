// GET /organizations/domains/: the caller's organization's domains, from the accounts projection.
import type { RequestHandler } from 'express';
import { domainView, type DomainRow } from '@llm/contracts';
import { unavailable } from '@llm/errors';
import type { Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function domainRoutes(pool: Pool, guard: RequestHandler[]): Handlers {
  return {
    'organizations.domains.list': [...guard, async (req, res) => {
      const r = await pool.query<DomainRow>(
        `SELECT id::text AS id, organization_id::text AS organization_id, domain, name, description, token, is_verified, created_at, updated_at
           FROM organization_domains WHERE organization_id::text = $1 ORDER BY created_at, domain`,
        [req.scope.organizationId],
      ).catch((err: unknown) => { throw unavailable('accounts_unavailable', 'The account store is not available; retry shortly.', err); });
      res.json(r.rows.map(domainView));
    }],
  };
}
