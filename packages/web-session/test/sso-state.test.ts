import { describe, expect, it } from 'vitest';
import { createSessionCodec, createSsoStateCodec, type NewSsoState } from '../src/index.ts';

const SECRET = 's'.repeat(32);
const input: NewSsoState = {
  state: 'st_'.padEnd(43, 'x'),
  nonce: 'no_'.padEnd(43, 'y'),
  code_verifier: 'cv_'.padEnd(43, 'z'),
  organization_slug: 'acme',
  provider_slug: 'okta',
  return_to: '/app/settings?tab=sso',
};

describe('sso state cookie', () => {
  it('when a state is issued, then it reads back from the cookie for ten minutes', () => {
    let ms = 1_700_000_000_000;
    const codec = createSsoStateCodec({ secrets: [SECRET], now: () => ms });
    const { token, setCookie, state } = codec.issue(input);
    expect(state).toMatchObject(input);
    expect(setCookie).toMatch(/^__Host-llm_sso_state=[^;]+; Path=\/; Max-Age=600; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/);
    expect(codec.fromCookieHeader(`${codec.cookieName}=${token}`)).toEqual({ ok: true, value: state });
    ms += 600_000;
    expect(codec.fromCookieHeader(`${codec.cookieName}=${token}`)).toEqual({ ok: false, error: 'expired' });
  });

  it('when a session token is presented as a state (or the reverse), then it is refused', () => {
    const sessions = createSessionCodec({ secrets: [SECRET] });
    const states = createSsoStateCodec({ secrets: [SECRET] });
    const session = sessions.issue({ user_id: '2b1f8a34-5d6e-4f70-8a9b-0c1d2e3f4a5b', identities: [] });
    expect(states.verify(session.token)).toEqual({ ok: false, error: 'bad_signature' });
    expect(sessions.verify(states.issue(input).token)).toEqual({ ok: false, error: 'bad_signature' });
  });

  it.each([
    ['an absolute URL', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/'],
    ['a backslash trick', '/\\evil.example/'],
    ['an embedded backslash', '/a\\b'],
    ['a relative path', 'app'],
    ['whitespace', '/a b'],
    ['a javascript URL', 'javascript:alert(1)'],
  ])('when the return URL is %s, then issuing throws', (_label, returnTo) => {
    const codec = createSsoStateCodec({ secrets: [SECRET] });
    expect(() => codec.issue({ ...input, return_to: returnTo })).toThrow();
  });

  it('when the verifier is too short for PKCE or a slug is malformed, then issuing throws', () => {
    const codec = createSsoStateCodec({ secrets: [SECRET] });
    expect(() => codec.issue({ ...input, code_verifier: 'short' })).toThrow();
    expect(() => codec.issue({ ...input, organization_slug: 'Acme' })).toThrow();
  });

  it('when the callback is done, then the clearing cookie removes the state', () => {
    const codec = createSsoStateCodec({ secrets: [SECRET], secure: false });
    expect(codec.clearCookie()).toBe('llm_sso_state=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax');
  });
});
