// GET /organizations/{id} (members only: anyone else gets 404) and GET /organizations/providers/
// (the caller's organization's SSO providers, never with their client secrets).
import type { RequestHandler } from 'express';
import { listProviders, memberRole, readOrganization } from '@llm/accounts-read';
import { organizationView, providerView } from '@llm/contracts';
import { notFound } from '@llm/errors';
import type { Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function organizationRoutes(pool: Pool, member: RequestHandler, providerGuard: RequestHandler[]): Handlers {
  return {
    'organizations.fetch': [member, async (req, res) => {
      const org = await readOrganization(pool, String(req.params.organization_id ?? ''));
      if (!org || await memberRole(pool, org.id, req.scope.userId) === undefined) throw notFound('organization_not_found', 'Organization not found');
      res.json(organizationView(org));
    }],
    'organizations.providers.list': [...providerGuard, async (req, res) => {
      res.json((await listProviders(pool, req.scope.organizationId)).map(providerView));
    }],
  };
}
