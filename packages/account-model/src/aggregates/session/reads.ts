// The one reader of revoked_sessions (0006-identities-and-sessions.sql): signed-out session ids, for
// the session aggregate and for every request a browser session makes.
import type { SessionEvent, SessionState } from './rules.ts';
import type { Queryable } from '../../queryable.ts';

export const loadSessionState = (q: Queryable, e: SessionEvent): Promise<SessionState> => loadRevokedSessions(q, [e.payload.sid]);

/** Which of these session ids were signed out. */
export async function loadRevokedSessions(q: Queryable, sids: string[]): Promise<SessionState> {
  const r = await q.query<{ sid: string }>('SELECT sid FROM revoked_sessions WHERE sid = ANY($1::text[]) ORDER BY revoked_at, sid', [sids]);
  return { revoked: r.rows.map((x) => x.sid) };
}

/** One primary-key read: whether the session was signed out. */
export async function isSessionRevoked(q: Queryable, sid: string): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM revoked_sessions WHERE sid = $1', [sid]);
  return r.rows.length > 0;
}
