// The short-lived cookie that carries an OIDC sign-in from its start to its callback: the `state`
// and `nonce` we sent, the PKCE verifier we kept back, which provider it was, and where to return.
// It is signed with the session secrets under its own purpose label, so it can never pass for a
// session. Signed, not encrypted: the verifier is visible to the browser's user, which PKCE allows
// (it protects the code against interception, not against the user who started the flow).
import { z } from 'zod';
import { fail, type Result } from '@llm/errors';
import { getCookieValues, serializeCookie } from './cookies.ts';
import { createTokenSigner, nowSeconds, type TokenRejection } from './signed-token.ts';

export const DEFAULT_SSO_STATE_TTL_SECONDS = 10 * 60;

const slug = z.string().regex(/^[a-z0-9_-]{1,64}$/);
const random = z.string().regex(/^[A-Za-z0-9._~-]{16,256}$/);

/**
 * A same-origin path (`/x?y#z`), never an absolute or protocol-relative URL: after sign-in we
 * redirect there, and an attacker-chosen host would make us an open redirector.
 */
export const returnPathSchema = z
  .string()
  .max(2048)
  .regex(/^\/(?![/\\])[\x21-\x7E]*$/, { message: 'must be a path on this site, e.g. /app' })
  .refine((p) => !p.includes('\\'), { message: 'must not contain backslashes' });

export const ssoStateSchema = z.object({
  state: random,
  nonce: random,
  /** RFC 7636: 43–128 unreserved characters. */
  code_verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/),
  organization_slug: slug,
  provider_slug: slug,
  return_to: returnPathSchema,
  issued_at: z.number().int().nonnegative(),
  expires_at: z.number().int().positive(),
});
export type SsoState = z.infer<typeof ssoStateSchema>;
export type NewSsoState = Omit<SsoState, 'issued_at' | 'expires_at'>;

export type SsoStateRejection = TokenRejection | 'missing';

export interface SsoStateCodecOptions {
  secrets: readonly string[];
  ttlSeconds?: number;
  secure?: boolean;
  now?: () => number;
}

export interface SsoStateCodec {
  readonly cookieName: string;
  issue(input: NewSsoState): { state: SsoState; token: string; setCookie: string };
  verify(token: string | undefined): Result<SsoState, TokenRejection>;
  fromCookieHeader(header: string | readonly string[] | undefined): Result<SsoState, SsoStateRejection>;
  /** Clear it once the callback used it: a state is good for one attempt. */
  clearCookie(): string;
}

export function createSsoStateCodec(options: SsoStateCodecOptions): SsoStateCodec {
  const ttl = options.ttlSeconds ?? DEFAULT_SSO_STATE_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 30 || ttl > 3600) throw new TypeError('sso state ttl must be an integer between 30 and 3600 seconds');
  const secure = options.secure ?? true;
  const now = options.now ?? Date.now;
  const cookieName = secure ? '__Host-llm_sso_state' : 'llm_sso_state';
  // Path=/ (required by `__Host-`) and SameSite=Lax: the identity provider sends the browser back
  // with a top-level GET, which Lax cookies accompany.
  const attributes = { path: '/', httpOnly: true, secure, sameSite: 'Lax' as const };
  const signer = createTokenSigner({ secrets: options.secrets, purpose: 'sso-state', schema: ssoStateSchema, maxTtlSeconds: ttl, now });

  return {
    cookieName,
    issue(input) {
      const issuedAt = nowSeconds(now);
      const state: SsoState = { ...input, issued_at: issuedAt, expires_at: issuedAt + ttl };
      const token = signer.sign(state);
      return { state, token, setCookie: serializeCookie(cookieName, token, { ...attributes, maxAgeSeconds: ttl }) };
    },
    verify: (token) => signer.verify(token),
    fromCookieHeader(header) {
      const values = getCookieValues(header, cookieName);
      if (values.length === 0) return fail('missing');
      let first: Result<SsoState, TokenRejection> | undefined;
      for (const value of values.slice(0, 4)) {
        const result = signer.verify(value);
        if (result.ok) return result;
        first ??= result;
      }
      return first!;
    },
    clearCookie: () => serializeCookie(cookieName, '', { ...attributes, maxAgeSeconds: 0 }),
  };
}
