// Browser sessions as signed cookies: no server-side session store, so any replica can read them.
// The price is that a session cannot be revoked before it expires except by rotating the secrets;
// the absolute lifetime (default 7 days) bounds that, and sign-out clears the cookie.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { fail, type Result } from '@llm/errors';
import { getCookieValues, serializeCookie } from './cookies.ts';
import { identitySchema, MAX_SESSION_IDENTITIES, parseIdentities } from './identities.ts';
import { createTokenSigner, nowSeconds, type TokenRejection } from './signed-token.ts';

export const DEFAULT_SESSION_TTL_SECONDS = 7 * 24 * 3600;
export const MAX_SESSION_TTL_SECONDS = 90 * 24 * 3600;

const identities = z.array(identitySchema).max(MAX_SESSION_IDENTITIES);

export const webSessionSchema = z.object({
  sid: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
  user_id: z.string().uuid(),
  email: z.string().email().max(320).optional(),
  /** Methods verified in this session (the reference's `session_identities`). */
  identities,
  /** Every method the user has ever used, when the issuer knew them. */
  user_identities: identities.optional(),
  issued_at: z.number().int().nonnegative(),
  expires_at: z.number().int().positive(),
});
export type WebSession = z.infer<typeof webSessionSchema>;

/** What a sign-in knows about the user; the codec adds `sid` and the lifetime. */
export interface NewSession {
  user_id: string;
  email?: string | undefined;
  identities: readonly string[];
  user_identities?: readonly string[] | undefined;
}

export type SessionRejection = TokenRejection | 'missing';

export interface SessionCodecOptions {
  /** Newest first; each at least 32 bytes. Old secrets stay last until their sessions expired. */
  secrets: readonly string[];
  ttlSeconds?: number;
  /** `false` only for plain-http development: drops `Secure` and the `__Host-` name prefix. */
  secure?: boolean;
  now?: () => number;
}

export interface IssuedSession {
  session: WebSession;
  token: string;
  /** The `Set-Cookie` value carrying `token`. */
  setCookie: string;
}

export interface SessionCodec {
  readonly cookieName: string;
  /** Starts a new session (new `sid`, full lifetime). Throws `InvalidIdentitiesError` on a bad identity. */
  issue(input: NewSession): IssuedSession;
  /**
   * Re-signs changed contents under the same `sid` and the same absolute expiry: a step-up sign-in
   * or an identities update never extends a session.
   */
  reissue(session: WebSession, changes: Partial<Pick<WebSession, 'email' | 'identities' | 'user_identities'>>): IssuedSession;
  verify(token: string | undefined): Result<WebSession, TokenRejection>;
  /** Reads the session from a `Cookie` header; the first value under our name that verifies wins. */
  fromCookieHeader(header: string | readonly string[] | undefined): Result<WebSession, SessionRejection>;
  /** The `Set-Cookie` value that removes the session cookie (sign-out). */
  clearCookie(): string;
}

const cookieAttributes = (secure: boolean) => ({ path: '/', httpOnly: true, secure, sameSite: 'Lax' as const });

export function createSessionCodec(options: SessionCodecOptions): SessionCodec {
  const ttl = options.ttlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > MAX_SESSION_TTL_SECONDS) {
    throw new TypeError(`session ttl must be an integer between 60 and ${MAX_SESSION_TTL_SECONDS} seconds`);
  }
  const secure = options.secure ?? true;
  const now = options.now ?? Date.now;
  // `__Host-`: only this exact origin over HTTPS may set it, so a sibling subdomain cannot plant one.
  const cookieName = secure ? '__Host-llm_session' : 'llm_session';
  const signer = createTokenSigner({ secrets: options.secrets, purpose: 'web-session', schema: webSessionSchema, maxTtlSeconds: ttl, now });

  const emit = (session: WebSession): IssuedSession => {
    const token = signer.sign(session);
    const maxAgeSeconds = session.expires_at - nowSeconds(now);
    return { session, token, setCookie: serializeCookie(cookieName, token, { ...cookieAttributes(secure), maxAgeSeconds }) };
  };

  const verify = (token: string | undefined) => signer.verify(token);

  return {
    cookieName,
    issue(input) {
      const issuedAt = nowSeconds(now);
      return emit({
        sid: randomBytes(18).toString('base64url'),
        user_id: input.user_id,
        ...(input.email !== undefined && { email: input.email }),
        identities: [...new Set(parseIdentities(input.identities, ['identities']))],
        ...(input.user_identities !== undefined && {
          user_identities: [...new Set(parseIdentities(input.user_identities, ['user_identities']))],
        }),
        issued_at: issuedAt,
        expires_at: issuedAt + ttl,
      });
    },
    reissue(session, changes) {
      const next: WebSession = { ...session };
      if (changes.email !== undefined) next.email = changes.email;
      if (changes.identities !== undefined) next.identities = parseIdentities(changes.identities, ['identities']);
      if (changes.user_identities !== undefined) next.user_identities = parseIdentities(changes.user_identities, ['user_identities']);
      return emit(next);
    },
    verify,
    fromCookieHeader(header) {
      const values = getCookieValues(header, cookieName);
      if (values.length === 0) return fail('missing');
      let first: Result<WebSession, TokenRejection> | undefined;
      for (const value of values.slice(0, 4)) {
        const result = verify(value);
        if (result.ok) return result;
        first ??= result;
      }
      return first!;
    },
    clearCookie: () => serializeCookie(cookieName, '', { ...cookieAttributes(secure), maxAgeSeconds: 0 }),
  };
}
