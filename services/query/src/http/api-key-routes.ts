// GET /keys: the caller's project's API keys, with their state, never their secrets.
import { listApiKeys } from '@llm/account-model';
import { apiKeyView } from '@llm/contracts';
import type { Handlers, Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function apiKeyRoutes(deps: { pool: Pool }, guards: Guards<'view'>): Handlers {
  const { pool } = deps;
  return {
    'keys.list': [...guards.view, async (req, res) => {
      const now = Date.now();
      res.json((await listApiKeys(pool, req.scope.projectId)).map((k) => apiKeyView(k, now)));
    }],
  };
}
