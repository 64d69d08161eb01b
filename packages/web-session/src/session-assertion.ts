// Signed assertions of a trusted session service: the service in front of this backend that runs
// e-mail and social sign-in vouches that the person holding session `sid` just verified some
// identities, so `PATCH /auth/session/identities` may add them. Nothing else adds an identity to a
// session but this server's own SSO callback.
//
// Header, in the manner of Stripe's webhook signatures:
//   X-Session-Assertion: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<sid>.<identities joined by ','>")>
// - `identities` are the request's `session_identities`, in the order sent (the grammar has no ',').
// - The signature binds the session id, so an assertion cannot serve another session; the timestamp
//   must be within the tolerance (default 300 s) of our clock, either way.
// - Secrets rotate: several `v1=` entries may be sent, and every configured secret is tried. Every
//   comparison runs in constant time and none exits early.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fail, ok, type Result } from '@llm/errors';
import { assertSecrets, nowSeconds } from './signed-token.ts';

export const SESSION_ASSERTION_HEADER = 'x-session-assertion';
export const DEFAULT_ASSERTION_TOLERANCE_SECONDS = 300;

export type AssertionRejection = 'missing' | 'malformed' | 'stale' | 'bad_signature';

/** What an assertion vouches for. */
export interface SessionAssertionClaim {
  /** The session's id (`sid` in the session cookie's payload). */
  sid: string;
  /** Exactly the `session_identities` of the request, in order. */
  identities: readonly string[];
}

export interface SessionAssertionVerifierOptions {
  /** Shared secrets, newest first; each at least 32 bytes. */
  secrets: readonly string[];
  toleranceSeconds?: number;
  now?: () => number;
}

export interface SessionAssertionVerifier {
  verify(header: string | readonly string[] | undefined, claim: SessionAssertionClaim): Result<{ timestamp: number }, AssertionRejection>;
}

const MAC_HEX = /^[0-9a-fA-F]{64}$/;
const MAX_HEADER_CHARS = 1024;

const signedContent = (timestamp: number, claim: SessionAssertionClaim): string => `${timestamp}.${claim.sid}.${claim.identities.join(',')}`;
const mac = (secret: string, content: string): Buffer => createHmac('sha256', Buffer.from(secret, 'utf8')).update(content, 'utf8').digest();

/** The header value a trusted session service sends (also used by tests). */
export function signSessionAssertion(secret: string, claim: SessionAssertionClaim, timestamp: number = nowSeconds()): string {
  return `t=${timestamp},v1=${mac(secret, signedContent(timestamp, claim)).toString('hex')}`;
}

export function createSessionAssertionVerifier(options: SessionAssertionVerifierOptions): SessionAssertionVerifier {
  assertSecrets(options.secrets);
  const secrets = [...options.secrets];
  const tolerance = options.toleranceSeconds ?? DEFAULT_ASSERTION_TOLERANCE_SECONDS;
  if (!Number.isInteger(tolerance) || tolerance < 1 || tolerance > 3600) throw new TypeError('assertion tolerance must be 1 … 3600 seconds');
  const now = options.now ?? Date.now;

  const verify: SessionAssertionVerifier['verify'] = (header, claim) => {
    if (header === undefined || (Array.isArray(header) && header.length === 0)) return fail('missing');
    // One header only: two could mix a timestamp from one with a signature from the other.
    if (typeof header !== 'string') return header.length === 1 ? verify(header[0], claim) : fail('malformed');
    if (header.length === 0) return fail('missing');
    if (header.length > MAX_HEADER_CHARS) return fail('malformed');
    let timestamp: number | undefined;
    const given: Buffer[] = [];
    for (const part of header.split(',')) {
      const eq = part.indexOf('=');
      if (eq <= 0) return fail('malformed');
      const key = part.slice(0, eq).trim();
      const value = part.slice(eq + 1).trim();
      if (key === 't') {
        if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return fail('malformed');
        timestamp = Number(value);
      } else if (key === 'v1') {
        if (!MAC_HEX.test(value)) return fail('malformed');
        given.push(Buffer.from(value, 'hex'));
      }
      // Other schemes (a future v2) are ignored, as Stripe does.
    }
    if (timestamp === undefined || given.length === 0 || given.length > 8) return fail('malformed');
    if (Math.abs(nowSeconds(now) - timestamp) > tolerance) return fail('stale');
    const content = signedContent(timestamp, claim);
    let matched = false;
    for (const secret of secrets) {
      const expected = mac(secret, content);
      for (const signature of given) matched = timingSafeEqual(expected, signature) || matched;
    }
    return matched ? ok({ timestamp }) : fail('bad_signature');
  };
  return { verify };
}
