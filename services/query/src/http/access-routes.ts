// GET /access/plans: the deployment's plan catalog (reference §2.1), from configuration.
import type { RequestHandler } from 'express';
import { serializeCatalog, type AccessCatalog } from '@llm/access';
import type { Handlers } from '@llm/http';

export function accessRoutes(catalog: AccessCatalog, auth: RequestHandler): Handlers {
  // Serialised once: the catalog is fixed for the life of the process.
  const plans = serializeCatalog(catalog);
  return {
    'access.plans': [auth, (_req, res) => { res.json(plans); }],
  };
}
