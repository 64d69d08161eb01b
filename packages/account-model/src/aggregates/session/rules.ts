// Signed-out browser sessions (sign-out, reference §3.3). Session cookies are signed, not stored: a
// session signed out before it expires is remembered by id. Signing out is always a fact, and
// signing out twice records nothing new.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, type Decision } from '../../decision.ts';

export type SessionEventType = 'accounts.session.revoked';
export type SessionEvent = AccountEvent<SessionEventType>;

/** The signed-out session ids the decision looks at. */
export interface SessionState { revoked: string[] }

export const SESSION_REJECTIONS = {} as const;
export type SessionRejection = keyof typeof SESSION_REJECTIONS;

export const sessionRules = rules({
  eventTypes: ['accounts.session.revoked'],
  rejections: SESSION_REJECTIONS,

  decide(_e: SessionEvent, _s: SessionState): Decision<SessionRejection> {
    return accepted;
  },
});
