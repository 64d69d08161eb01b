// Compact signed tokens: `v1.<base64url(JSON)>.<base64url(HMAC-SHA256)>`, the one signing scheme
// behind session cookies and SSO state cookies.
//
// - The MAC covers the format version, a purpose label and the encoded payload, so a token minted
//   for one purpose (an SSO state) can never pass as another (a session) under the same secrets.
// - Secrets rotate: sign with the first, accept any. Every secret is tried, without an early exit.
// - Payloads are signed, not encrypted: they must hold nothing the browser's user may not see.
// - A refusal is a value with a reason (for logs), never an exception: cookies are user input.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { fail, ok, type Result } from '@llm/errors';

export type TokenRejection = 'malformed' | 'bad_signature' | 'invalid_payload' | 'expired' | 'not_yet_valid';

/** Every signed payload carries its lifetime, in seconds since the epoch (JWT-style). */
export interface TimedPayload {
  issued_at: number;
  expires_at: number;
}

export interface TokenSignerOptions<T extends TimedPayload> {
  /** Signing secrets, newest first; each at least 32 bytes. */
  secrets: readonly string[];
  /** Domain separation label, e.g. `web-session`. */
  purpose: string;
  schema: z.ZodType<T>;
  /**
   * Upper bound on any token's lifetime, enforced at verification: shortening it in configuration
   * also shortens tokens already issued.
   */
  maxTtlSeconds: number;
  /** Tolerated clock difference between the issuing and the verifying process. */
  clockSkewSeconds?: number;
  now?: () => number;
}

export interface TokenSigner<T extends TimedPayload> {
  sign(payload: T): string;
  verify(token: string | undefined): Result<T, TokenRejection>;
}

const VERSION = 'v1';
const MAC_BYTES = 32;
export const MIN_SECRET_BYTES = 32;
// Browsers keep about 4 KiB per cookie; anything longer did not come from us.
const MAX_TOKEN_CHARS = 4096;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Throws (without echoing any secret) unless there is at least one secret and each is long enough. */
export function assertSecrets(secrets: readonly string[]): void {
  if (secrets.length === 0) throw new TypeError('at least one signing secret is required');
  secrets.forEach((secret, index) => {
    if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
      throw new TypeError(`signing secret #${index + 1} is shorter than ${MIN_SECRET_BYTES} bytes`);
    }
  });
}

export const nowSeconds = (now: () => number = Date.now): number => Math.floor(now() / 1000);

export function createTokenSigner<T extends TimedPayload>(options: TokenSignerOptions<T>): TokenSigner<T> {
  assertSecrets(options.secrets);
  if (!/^[a-z0-9-]+$/.test(options.purpose)) throw new TypeError('purpose must match [a-z0-9-]+');
  const keys = options.secrets.map((s) => Buffer.from(s, 'utf8'));
  const skew = options.clockSkewSeconds ?? 60;
  const now = options.now ?? Date.now;
  const mac = (key: Buffer, body: string): Buffer =>
    createHmac('sha256', key).update(`${VERSION}\n${options.purpose}\n${body}`).digest();

  return {
    sign(payload) {
      // Refuse to mint what verify() would refuse: a bug here should fail loudly, not log users out.
      const checked = options.schema.parse(payload);
      const body = Buffer.from(JSON.stringify(checked), 'utf8').toString('base64url');
      return `${VERSION}.${body}.${mac(keys[0]!, body).toString('base64url')}`;
    },

    verify(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_CHARS) return fail('malformed');
      const parts = token.split('.');
      if (parts.length !== 3 || parts[0] !== VERSION) return fail('malformed');
      const [, body, signature] = parts as [string, string, string];
      if (!BASE64URL.test(body) || !BASE64URL.test(signature)) return fail('malformed');
      const given = Buffer.from(signature, 'base64url');
      // Non-canonical base64url (stray trailing bits) would let two strings carry one MAC.
      if (given.length !== MAC_BYTES || given.toString('base64url') !== signature) return fail('malformed');

      let matched = false;
      for (const key of keys) matched = timingSafeEqual(mac(key, body), given) || matched;
      if (!matched) return fail('bad_signature');

      let json: unknown;
      try {
        json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return fail('invalid_payload');
      }
      const parsed = options.schema.safeParse(json);
      if (!parsed.success) return fail('invalid_payload');
      const payload = parsed.data;
      if (payload.expires_at <= payload.issued_at) return fail('invalid_payload');
      const t = nowSeconds(now);
      if (payload.issued_at > t + skew) return fail('not_yet_valid');
      if (t >= Math.min(payload.expires_at, payload.issued_at + options.maxTtlSeconds)) return fail('expired');
      return ok(payload);
    },
  };
}
