import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTokenSigner } from '../src/index.ts';

const A = 'a'.repeat(32);
const B = 'b'.repeat(40);
const schema = z.object({ who: z.string(), issued_at: z.number().int(), expires_at: z.number().int() });
type P = z.infer<typeof schema>;

function clock(startSeconds = 1_700_000_000) {
  let ms = startSeconds * 1000;
  return { now: () => ms, advance: (s: number) => { ms += s * 1000; }, seconds: () => Math.floor(ms / 1000) };
}

const signer = (secrets: string[], c = clock(), purpose = 'test', maxTtlSeconds = 3600) =>
  createTokenSigner<P>({ secrets, purpose, schema, maxTtlSeconds, now: c.now });

const payload = (c: ReturnType<typeof clock>, ttl = 600): P => ({ who: 'alice', issued_at: c.seconds(), expires_at: c.seconds() + ttl });

/** Replaces the character at `i` with a different base64url character. */
function flip(token: string, i: number): string {
  const ch = token[i]!;
  const other = ch === 'A' ? 'B' : 'A';
  return token.slice(0, i) + other + token.slice(i + 1);
}

describe('signed tokens', () => {
  it('when a token is signed, then it verifies to the same payload', () => {
    const c = clock();
    const s = signer([A], c);
    const token = s.sign(payload(c));
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(s.verify(token)).toEqual({ ok: true, value: payload(c) });
  });

  it('when any single character of the token is changed, then it is refused', () => {
    const c = clock();
    const s = signer([A], c);
    const token = s.sign(payload(c));
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      const r = s.verify(flip(token, i));
      expect(r.ok, `position ${i}`).toBe(false);
    }
  });

  it('when the payload is swapped for another signed payload, then the signature does not match', () => {
    const c = clock();
    const s = signer([A], c);
    const [v, , sig] = s.sign(payload(c)).split('.');
    const [, body] = s.sign({ ...payload(c), who: 'mallory' }).split('.');
    expect(s.verify(`${v}.${body}.${sig}`)).toEqual({ ok: false, error: 'bad_signature' });
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['two parts', 'v1.abc'],
    ['four parts', 'v1.a.b.c'],
    ['another version', 'v2.abc.def'],
    ['non-base64url characters', 'v1.ab+c.de/f'],
    ['a short signature', 'v1.abc.AAAA'],
    ['an over-long token', `v1.${'a'.repeat(5000)}.x`],
  ])('when the token is %s, then it is malformed', (_label, token) => {
    expect(signer([A]).verify(token)).toEqual({ ok: false, error: 'malformed' });
  });

  it('when extra characters are appended or the token is truncated, then it is refused', () => {
    const c = clock();
    const s = signer([A], c);
    const token = s.sign(payload(c));
    expect(s.verify(`${token}A`).ok).toBe(false);
    expect(s.verify(token.slice(0, -1)).ok).toBe(false);
    expect(s.verify(`${token}.`).ok).toBe(false);
  });

  it('when a token was signed for another purpose, then it is refused', () => {
    const c = clock();
    const token = signer([A], c, 'sso-state').sign(payload(c));
    expect(signer([A], c, 'web-session').verify(token)).toEqual({ ok: false, error: 'bad_signature' });
  });

  it('when the signed JSON does not match the schema, then the payload is invalid', () => {
    const c = clock();
    const loose = createTokenSigner({ secrets: [A], purpose: 'test', schema: z.object({ issued_at: z.number(), expires_at: z.number() }), maxTtlSeconds: 3600, now: c.now });
    const token = loose.sign({ issued_at: c.seconds(), expires_at: c.seconds() + 60 });
    expect(signer([A], c).verify(token)).toEqual({ ok: false, error: 'invalid_payload' });
  });

  describe('lifetime', () => {
    it('when the expiry passes, then the token is expired', () => {
      const c = clock();
      const s = signer([A], c);
      const token = s.sign(payload(c, 600));
      c.advance(599);
      expect(s.verify(token).ok).toBe(true);
      c.advance(1);
      expect(s.verify(token)).toEqual({ ok: false, error: 'expired' });
    });

    it('when the configured maximum lifetime is shorter than the stamped one, then the shorter wins', () => {
      const c = clock();
      const token = signer([A], c, 'test', 3600).sign(payload(c, 3600));
      c.advance(120);
      expect(signer([A], c, 'test', 60).verify(token)).toEqual({ ok: false, error: 'expired' });
    });

    it('when the token claims to be issued in the future beyond the skew, then it is not yet valid', () => {
      const c = clock();
      const s = signer([A], c);
      const early = { who: 'x', issued_at: c.seconds() + 3600, expires_at: c.seconds() + 7200 };
      expect(s.verify(s.sign(early))).toEqual({ ok: false, error: 'not_yet_valid' });
      const withinSkew = { who: 'x', issued_at: c.seconds() + 30, expires_at: c.seconds() + 600 };
      expect(s.verify(s.sign(withinSkew)).ok).toBe(true);
    });

    it('when expiry is not after issue, then the payload is invalid', () => {
      const c = clock();
      const s = signer([A], c);
      expect(s.verify(s.sign({ who: 'x', issued_at: c.seconds(), expires_at: c.seconds() }))).toEqual({ ok: false, error: 'invalid_payload' });
    });
  });

  describe('key rotation', () => {
    it('when a new secret is put first, then old tokens still verify and new ones use the new secret', () => {
      const c = clock();
      const old = signer([A], c);
      const rotated = signer([B, A], c);
      const oldToken = old.sign(payload(c));
      expect(rotated.verify(oldToken).ok).toBe(true);
      const newToken = rotated.sign(payload(c));
      expect(signer([B], c).verify(newToken).ok).toBe(true);
      expect(old.verify(newToken)).toEqual({ ok: false, error: 'bad_signature' });
    });

    it('when the old secret is retired, then its tokens are refused', () => {
      const c = clock();
      const token = signer([A], c).sign(payload(c));
      expect(signer([B], c).verify(token)).toEqual({ ok: false, error: 'bad_signature' });
    });
  });

  it('when a secret is shorter than 32 bytes or none is given, then construction fails without echoing it', () => {
    expect(() => signer([])).toThrow(/at least one/);
    expect(() => signer([A, 'short-secret'])).toThrow(/#2 is shorter than 32 bytes/);
    try {
      signer(['short-secret']);
    } catch (err) {
      expect(String(err)).not.toContain('short-secret');
    }
  });
});
