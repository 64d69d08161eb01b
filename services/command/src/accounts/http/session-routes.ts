// Changes to the browser session itself: identities merged after a step-up sign-in elsewhere
// (PATCH /auth/session/identities, reference §3.3) and sign-out. The session is a signed cookie;
// sign-out also records the session id (accounts.session.revoked) so the cookie stops working on
// every replica even if a copy of it survives.
import { AppError } from '@llm/errors';
import { RequestValidationError, validate, type Handlers, type Guards } from '@llm/http';
import type { SessionReader } from '@llm/auth';
import {
  InvalidIdentitiesError, mergeIdentities, sessionIdentitiesUpdateSchema, SESSION_ASSERTION_HEADER,
  type SessionAssertionVerifier, type SessionCodec,
} from '@llm/web-session';
import type { AccountCommands } from '../adapters/account-commands.ts';

export interface SessionRouteDeps {
  commands: AccountCommands;
  sessions: SessionCodec;
  readSession: SessionReader;
  /** The trusted session service's assertions (SESSION_ASSERTION_SECRETS); undefined = none is trusted. */
  assertions?: SessionAssertionVerifier | undefined;
}

const refused = (message: string, identities: string[]): AppError =>
  new AppError({ code: 'identity_not_verified', kind: 'forbidden', message, details: { unverified_identities: identities } });

export function sessionRoutes(deps: SessionRouteDeps, _guards: Guards<never>): Handlers {
  return {
    'auth.session.identities': async (req, res) => {
      const session = await deps.readSession(req);
      const body = validate(sessionIdentitiesUpdateSchema, req.body);
      // The reference stores whatever the caller sends, which would let any session claim an e-mail,
      // social or SSO sign-in it never made (and so pass an organization's policy). A session gains
      // an identity only when it was verified: `sso:` by this server's own callback (never here),
      // others by the trusted session service, whose signed assertion must cover this session and
      // exactly these identities. Repeating what the session already holds needs no proof.
      const held = new Set<string>(session.identities);
      const fresh = [...new Set<string>(body.session_identities)].filter((id) => !held.has(id));
      const sso = fresh.filter((id) => id.startsWith('sso:'));
      if (sso.length > 0) {
        throw refused('An sso: identity is added to a session by signing in through that provider, not by this call.', sso);
      }
      if (fresh.length > 0) {
        if (!deps.assertions) {
          throw refused('These identities were not verified in this session, and no trusted session service is configured to vouch for them.', fresh);
        }
        const verdict = deps.assertions.verify(req.headers[SESSION_ASSERTION_HEADER], { sid: session.sid, identities: body.session_identities });
        if (!verdict.ok) {
          req.log?.info({ rejection: verdict.error }, 'session assertion refused');
          throw refused(`These identities were not verified in this session: the ${SESSION_ASSERTION_HEADER} assertion is ${verdict.error === 'missing' ? 'missing' : 'not valid'}.`, fresh);
        }
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
      // Recorded before the cookie is cleared: a copy of the cookie must stop working everywhere.
      await deps.commands.commit({
        type: 'accounts.session.revoked', key: `session:${session.sid}`,
        payload: { sid: session.sid, user_id: session.user_id, expires_at_us: session.expires_at * 1_000_000 },
        meta: { requestId: req.id, actorId: session.user_id },
      });
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Set-Cookie', deps.sessions.clearCookie());
      res.status(204).end();
    },
  };
}
