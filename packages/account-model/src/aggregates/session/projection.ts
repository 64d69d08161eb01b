// revoked_sessions from the session aggregate's facts (rules: rules.ts).
import { eventTime } from '../../account-event.ts';
import type { SessionEvent, SessionState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

export function projectSession(e: SessionEvent, _s: SessionState): SqlStatement[] {
  const p = e.payload;
  // Kept until the session would have expired anyway; the first sign-out's time stands.
  return [{
    text: 'INSERT INTO revoked_sessions (sid, user_id, expires_at, revoked_at) VALUES ($1, $2, $3, $4) ON CONFLICT (sid) DO NOTHING',
    values: [p.sid, p.user_id, new Date(p.expires_at_us / 1000).toISOString(), eventTime(e)],
  }];
}
