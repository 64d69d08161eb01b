// GET /access/plans: the deployment's plan catalog (reference §2.1), from configuration.
import { serializeCatalog, type AccessCatalog } from '@llm/access';
import type { Handlers, Guards } from '@llm/http';

export function accessRoutes(deps: { catalog: AccessCatalog }, guards: Guards<'auth'>): Handlers {
  const { catalog } = deps;
  // Serialised once: the catalog is fixed for the life of the process.
  const plans = serializeCatalog(catalog);
  return {
    'access.plans': [...guards.auth, (_req, res) => { res.json(plans); }],
  };
}
