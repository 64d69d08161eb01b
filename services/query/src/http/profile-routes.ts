// GET /health and GET /profile, as the reference's health-check suite calls them: the first answers
// `{"status":"ok"}` to anyone (a liveness check of the API port; dependencies are /readyz's concern),
// the second the caller's user — the user an API key was created for, or the signed-in one.
import { readUser } from '@llm/account-model';
import { notFound } from '@llm/errors';
import type { Handlers, Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function profileRoutes(deps: { pool: Pool }, guards: Guards<'member'>): Handlers {
  const { pool } = deps;
  return {
    'health.check': (_req, res) => { res.json({ status: 'ok' }); },
    'profile.fetch': [...guards.member, async (req, res) => {
      const u = await readUser(pool, req.scope.userId);
      // The credential was admitted, so its user existed a moment ago: only a concurrent deletion lands here.
      if (!u) throw notFound('user_not_found', 'User not found');
      const created = u.created_at.toISOString();
      res.json({ id: u.id, uid: u.id, email: u.email, username: u.username, created_at: created, updated_at: created });
    }],
  };
}
