// Webhook request signing (reference accounts §9.6): `X-Agenta-Signature: t=<unix seconds>,v1=<hex
// HMAC-SHA256(key = secret, msg = "<t>.<body>")>`. The timestamp is inside the signed bytes, so a
// receiver that rejects old timestamps also rejects replays. Also the generator of subscription
// secrets (§9.3: 32 characters of [A-Za-z0-9]).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header value for this body, signed at `unixSeconds`. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const t = Math.floor(unixSeconds);
  return `t=${t},v1=${hmacHex(secret, String(t), body)}`;
}

export interface VerifyOptions {
  /** Largest accepted distance between `t` and now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** Now, in unix seconds. Default the clock. */
  now?: number;
}

/**
 * Checks a signature header against the raw body as received (not a re-serialization): the `t`
 * must be within the tolerance and one of the `v1` values must match, compared in constant time.
 * Malformed headers are simply not valid (never throws).
 */
export function verifySignature(secret: string, rawBody: string | Buffer, header: string | undefined | null, options: VerifyOptions = {}): boolean {
  if (typeof header !== 'string' || header.length > 4096) return false;
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? Date.now() / 1000;
  let t: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') t = value;
    else if (key === 'v1') candidates.push(value.toLowerCase());
  }
  if (t === undefined || !/^\d{1,15}$/.test(t) || candidates.length === 0) return false;
  if (!(Math.abs(now - Number(t)) <= tolerance)) return false;
  const expected = Buffer.from(hmacHex(secret, t, rawBody), 'utf8');
  let ok = false;
  for (const c of candidates) {
    const given = Buffer.from(c, 'utf8');
    // Lengths are public (always 64 hex characters); only the content is compared in constant time.
    if (given.length === expected.length && timingSafeEqual(given, expected)) ok = true;
  }
  return ok;
}

function hmacHex(secret: string, t: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`, 'utf8').update(body).digest('hex');
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// 62 × 4 = 248: bytes from 248 up are dropped, so every character is equally likely.
const LIMIT = 256 - (256 % ALPHABET.length);

/** A new signing secret: 32 characters of [A-Za-z0-9] from the CSPRNG, without modulo bias. */
export function generateSigningSecret(length = 32): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < LIMIT) out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}
