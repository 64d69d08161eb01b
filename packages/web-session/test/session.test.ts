import { describe, expect, it } from 'vitest';
import { createSessionCodec, InvalidIdentitiesError, mergeIdentities } from '../src/index.ts';

const SECRET = 's'.repeat(32);
const USER = '2b1f8a34-5d6e-4f70-8a9b-0c1d2e3f4a5b';

function clock(startSeconds = 1_700_000_000) {
  let ms = startSeconds * 1000;
  return { now: () => ms, advance: (s: number) => { ms += s * 1000; } };
}

describe('session codec', () => {
  it('when a session is issued, then its cookie reads back to the same session', () => {
    const c = clock();
    const codec = createSessionCodec({ secrets: [SECRET], now: c.now });
    const { session, token, setCookie } = codec.issue({ user_id: USER, email: 'a@example.com', identities: ['sso:acme:okta', 'sso:acme:okta'] });
    expect(session.identities).toEqual(['sso:acme:okta']);
    expect(session.expires_at - session.issued_at).toBe(7 * 24 * 3600);
    expect(session.sid).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(setCookie.startsWith(`__Host-llm_session=${token}; Path=/; Max-Age=604800; `)).toBe(true);
    expect(setCookie).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    expect(codec.fromCookieHeader(`other=1; __Host-llm_session=${token}`)).toEqual({ ok: true, value: session });
  });

  it('when two sessions are issued, then their ids differ', () => {
    const codec = createSessionCodec({ secrets: [SECRET] });
    expect(codec.issue({ user_id: USER, identities: [] }).session.sid).not.toBe(codec.issue({ user_id: USER, identities: [] }).session.sid);
  });

  it('when secure is off (plain-http development), then the cookie has no Secure flag and no __Host- prefix', () => {
    const codec = createSessionCodec({ secrets: [SECRET], secure: false });
    const { setCookie } = codec.issue({ user_id: USER, identities: ['email:otp'] });
    expect(codec.cookieName).toBe('llm_session');
    expect(setCookie).not.toContain('Secure');
    expect(setCookie).toContain('HttpOnly; SameSite=Lax');
  });

  it('when the cookie is missing, tampered, expired or signed with another key, then there is no session and a reason', () => {
    const c = clock();
    const codec = createSessionCodec({ secrets: [SECRET], ttlSeconds: 3600, now: c.now });
    const { token } = codec.issue({ user_id: USER, identities: ['email:otp'] });
    const name = codec.cookieName;
    expect(codec.fromCookieHeader(undefined)).toEqual({ ok: false, error: 'missing' });
    expect(codec.fromCookieHeader('unrelated=1')).toEqual({ ok: false, error: 'missing' });
    expect(codec.fromCookieHeader(`${name}=garbage`)).toEqual({ ok: false, error: 'malformed' });
    expect(codec.fromCookieHeader(`${name}=${token.replace('.', '.e')}`).ok).toBe(false);
    const other = createSessionCodec({ secrets: ['o'.repeat(32)], now: c.now });
    expect(other.fromCookieHeader(`${name}=${token}`)).toEqual({ ok: false, error: 'bad_signature' });
    c.advance(3600);
    expect(codec.fromCookieHeader(`${name}=${token}`)).toEqual({ ok: false, error: 'expired' });
  });

  it('when a stale cookie precedes a valid one under the same name, then the valid one is used', () => {
    const codec = createSessionCodec({ secrets: [SECRET] });
    const { token, session } = codec.issue({ user_id: USER, identities: ['email:otp'] });
    expect(codec.fromCookieHeader(`${codec.cookieName}=stale; ${codec.cookieName}=${token}`)).toEqual({ ok: true, value: session });
  });

  it('when identities are merged into a session, then the reissued cookie keeps sid and absolute expiry', () => {
    const c = clock();
    const codec = createSessionCodec({ secrets: [SECRET], now: c.now });
    const first = codec.issue({ user_id: USER, identities: ['email:otp'] });
    c.advance(3600);
    const merged = mergeIdentities(first.session.identities, ['sso:acme:okta']);
    const second = codec.reissue(first.session, { identities: merged });
    expect(second.session).toEqual({ ...first.session, identities: ['email:otp', 'sso:acme:okta'] });
    expect(second.setCookie).toContain(`Max-Age=${7 * 24 * 3600 - 3600}`);
    expect(codec.verify(second.token)).toEqual({ ok: true, value: second.session });
  });

  it('when a session is issued with a malformed identity, then it throws', () => {
    const codec = createSessionCodec({ secrets: [SECRET] });
    expect(() => codec.issue({ user_id: USER, identities: ['email:otp', 'root'] })).toThrow(InvalidIdentitiesError);
    expect(() => codec.issue({ user_id: USER, identities: [], user_identities: ['sso:x'] })).toThrow(InvalidIdentitiesError);
  });

  it('when signing out, then the clearing cookie has the same name and attributes and expires at once', () => {
    const codec = createSessionCodec({ secrets: [SECRET] });
    expect(codec.clearCookie()).toBe('__Host-llm_session=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax');
  });

  it('when the ttl is out of bounds, then construction fails', () => {
    expect(() => createSessionCodec({ secrets: [SECRET], ttlSeconds: 10 })).toThrow(TypeError);
    expect(() => createSessionCodec({ secrets: [SECRET], ttlSeconds: 1.5 * 3600 * 24 * 365 })).toThrow(TypeError);
  });
});
