// Changes to the browser session itself: identities merged after a step-up sign-in elsewhere
// (PATCH /auth/session/identities, reference §3.3) and sign-out. The session is a signed cookie;
// sign-out also records the session id (accounts.session.revoked) so the cookie stops working on
// every replica even if a copy of it survives.
import { conflict, unavailable } from '@llm/errors';
import { RequestValidationError, validate, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { userIdentities, type SessionReader } from '@llm/auth';
import { InvalidIdentitiesError, mergeIdentities, sessionIdentitiesUpdateSchema, type SessionCodec } from '@llm/web-session';
import type { AccountAppender } from '../adapters/account-appender.ts';
import { waitForEvent } from '../adapters/accounts-store.ts';

export interface SessionRouteDeps {
  pool: Pool;
  appender: AccountAppender;
  sessions: SessionCodec;
  readSession: SessionReader;
}

export function sessionRoutes(deps: SessionRouteDeps): Handlers {
  return {
    'auth.session.identities': async (req, res) => {
      const session = await deps.readSession(req);
      const body = validate(sessionIdentitiesUpdateSchema, req.body);
      // Only a sign-in through the provider itself puts an `sso:` identity into a session: the
      // reference stores any string, which would let a session claim an SSO sign-in it never made.
      const linked = new Set(await userIdentities(deps.pool, session.user_id));
      const claimed = body.session_identities
        .map((id, i) => ({ id, i }))
        .filter(({ id }) => id.startsWith('sso:') && !session.identities.includes(id) && !linked.has(id));
      if (claimed.length > 0) {
        throw new RequestValidationError(claimed.map(({ id, i }) => ({
          loc: ['body', 'session_identities', i], msg: `'${id}' is added by signing in through that provider, not by this call`, type: 'value_error',
        })));
      }
      let merged;
      try {
        merged = mergeIdentities(session.identities, body.session_identities);
      } catch (err) {
        if (err instanceof InvalidIdentitiesError) throw new RequestValidationError(err.issues);
        throw err;
      }
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Set-Cookie', deps.sessions.reissue(session, { identities: merged }).setCookie);
      res.status(200).json({ session_identities: merged, previous: session.identities });
    },

    'auth.signout': async (req, res) => {
      const session = await deps.readSession(req);
      const eventId = await deps.appender.append('accounts.session.revoked', `session:${session.sid}`, {
        sid: session.sid, user_id: session.user_id, expires_at_us: session.expires_at * 1_000_000,
      }, { requestId: req.id, actorId: session.user_id });
      const outcome = await waitForEvent(deps.pool, eventId);
      if (outcome.status === 'timeout') throw unavailable('projection_lag', 'The sign-out was accepted but is not visible yet; retry shortly.');
      if (outcome.status === 'rejected') throw conflict('sign_out_rejected', outcome.reason);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Set-Cookie', deps.sessions.clearCookie());
      res.status(204).end();
    },
  };
}
