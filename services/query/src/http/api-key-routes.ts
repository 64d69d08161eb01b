// GET /keys: the caller's project's API keys, with their state, never their secrets.
import type { RequestHandler } from 'express';
import { listApiKeys } from '@llm/account-model';
import { apiKeyView } from '@llm/contracts';
import type { Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function apiKeyRoutes(pool: Pool, guard: RequestHandler[]): Handlers {
  return {
    'keys.list': [...guard, async (req, res) => {
      const now = Date.now();
      res.json((await listApiKeys(pool, req.scope.projectId)).map((k) => apiKeyView(k, now)));
    }],
  };
}
