// What the command side reads from the accounts read model: users, and the outcome of its own
// appended events (read-your-writes).
import type { Pool } from '@llm/postgres';
import { AppError, sleep } from '@llm/errors';

export type EventOutcome = { status: 'applied' } | { status: 'rejected'; reason: string } | { status: 'timeout' };

/**
 * Waits (bounded) until the accounts projector recorded the event, and returns its outcome. An event
 * the store could not hold (rejection code `unstorable`) is the request's fault whatever the route:
 * it is answered 422 here, naming the store's reason.
 */
export async function waitForEvent(pool: Pool, eventId: string, timeoutMs = 10_000): Promise<EventOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; Date.now() < deadline; i++) {
    const r = await pool.query<{ status: 'applied' | 'rejected'; rejection: string | null; rejection_code: string | null }>(
      'SELECT status, rejection, rejection_code FROM events WHERE event_id = $1', [eventId]);
    const row = r.rows[0];
    if (row?.rejection_code === 'unstorable') {
      throw new AppError({ code: 'unstorable_input', kind: 'unprocessable', message: `The change cannot be stored: ${row.rejection ?? 'refused by the store'}` });
    }
    if (row) return row.status === 'applied' ? { status: 'applied' } : { status: 'rejected', reason: row.rejection ?? 'rejected' };
    await sleep(Math.min(5 * 2 ** i, 50));
  }
  return { status: 'timeout' };
}

export async function findUserByEmail(pool: Pool, email: string): Promise<{ id: string; email: string } | undefined> {
  const r = await pool.query<{ id: string; email: string }>('SELECT id, email FROM users WHERE lower(email) = lower($1)', [email]);
  return r.rows[0];
}

export async function findUserById(pool: Pool, id: string): Promise<{ id: string; email: string } | undefined> {
  const r = await pool.query<{ id: string; email: string }>('SELECT id, email FROM users WHERE id::text = $1', [id]);
  return r.rows[0];
}

export interface ProjectedAccount {
  user: { id: string; email: string; name: string; username: string; created_at: string };
  organization: { id: string; name: string; slug: string; owner_id: string; created_at: string };
  workspace: { id: string; name: string; slug: string; organization_id: string; created_at: string };
  project: { id: string; name: string; slug: string; organization_id: string; workspace_id: string; is_default: boolean; created_at: string };
}

export async function readAccount(pool: Pool, userId: string, orgId: string, wsId: string, projectId: string): Promise<ProjectedAccount> {
  const [u, o, w, p] = await Promise.all([
    pool.query('SELECT id, email, name, username, created_at FROM users WHERE id = $1', [userId]),
    pool.query('SELECT id, name, slug, owner_id, created_at FROM organizations WHERE id = $1', [orgId]),
    pool.query('SELECT id, name, slug, organization_id, created_at FROM workspaces WHERE id = $1', [wsId]),
    pool.query('SELECT id, name, slug, organization_id, workspace_id, is_default, created_at FROM projects WHERE id = $1', [projectId]),
  ]);
  return { user: u.rows[0], organization: o.rows[0], workspace: w.rows[0], project: p.rows[0] } as ProjectedAccount;
}
