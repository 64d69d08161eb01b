import { describe, expect, it } from 'vitest';
import {
  InvalidIdentitiesError,
  MAX_SESSION_IDENTITIES,
  isIdentity,
  mergeIdentities,
  parseIdentity,
  sessionIdentitiesUpdateSchema,
  ssoIdentity,
  type Identity,
} from '../src/index.ts';

const ids = (...values: string[]): Identity[] => values as Identity[];

describe('identity strings', () => {
  it.each([
    'email:otp',
    'email:password',
    'social:google',
    'social:google-workspaces',
    'social:azure-ad',
    'sso:acme:okta',
    'sso:acme-corp:okta_prod',
    `sso:${'a'.repeat(64)}:${'b'.repeat(64)}`,
  ])('when %s is given, then it is accepted', (value) => {
    expect(isIdentity(value)).toBe(true);
  });

  it.each([
    ['a wildcard pattern', 'email:*'],
    ['a wildcard sso pattern', 'sso:*'],
    ['an unknown email method', 'email:magic'],
    ['an sso identity without provider', 'sso:acme'],
    ['an sso identity with four parts', 'sso:acme:okta:x'],
    ['an empty social provider', 'social:'],
    ['upper case', 'social:Google'],
    ['an underscore in a social provider', 'social:my_idp'],
    ['an unknown kind', 'saml:acme:okta'],
    ['surrounding whitespace', ' email:otp'],
    ['a trailing newline', 'email:otp\n'],
    ['an over-long slug', `sso:${'a'.repeat(65)}:okta`],
    ['the empty string', ''],
  ])('when %s is given, then it is refused', (_label, value) => {
    expect(isIdentity(value)).toBe(false);
  });

  it('when an identity is parsed, then its parts come back', () => {
    expect(parseIdentity('email:otp')).toEqual({ kind: 'email', method: 'otp' });
    expect(parseIdentity('social:github')).toEqual({ kind: 'social', provider: 'github' });
    expect(parseIdentity('sso:acme:okta')).toEqual({ kind: 'sso', organization_slug: 'acme', provider_slug: 'okta' });
    expect(parseIdentity('sso:acme')).toBeUndefined();
    expect(parseIdentity(42)).toBeUndefined();
  });

  it('when an sso identity is built from bad slugs, then it throws', () => {
    expect(ssoIdentity('acme', 'okta')).toBe('sso:acme:okta');
    expect(() => ssoIdentity('Acme', 'okta')).toThrow(TypeError);
    expect(() => ssoIdentity('acme', 'ok:ta')).toThrow(TypeError);
  });
});

describe('mergeIdentities', () => {
  it('when identities are supplied, then current ones come first, new ones follow in order, duplicates drop', () => {
    const merged = mergeIdentities(ids('email:otp', 'social:github'), ['sso:acme:okta', 'email:otp', 'social:google', 'sso:acme:okta']);
    expect(merged).toEqual(['email:otp', 'social:github', 'sso:acme:okta', 'social:google']);
  });

  it('when nothing new is supplied, then the session is unchanged', () => {
    expect(mergeIdentities(ids('email:otp'), [])).toEqual(['email:otp']);
    expect(mergeIdentities([], [])).toEqual([]);
  });

  it('when some supplied values are malformed, then nothing merges and every bad one is listed with its index', () => {
    let caught: unknown;
    try {
      mergeIdentities(ids('email:otp'), ['social:google', 'sso:acme', 7, 'email:*']);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InvalidIdentitiesError);
    const err = caught as InvalidIdentitiesError;
    expect(err.kind).toBe('invalid');
    expect(err.invalid).toEqual(['sso:acme', '7', 'email:*']);
    expect(err.issues.map((i) => i.loc)).toEqual([
      ['body', 'session_identities', 1],
      ['body', 'session_identities', 2],
      ['body', 'session_identities', 3],
    ]);
    expect(err.issues.every((i) => i.type === 'value_error' && i.msg.startsWith('Invalid identity'))).toBe(true);
  });

  it('when the merge would exceed the cap, then it is refused', () => {
    const many = Array.from({ length: MAX_SESSION_IDENTITIES }, (_, i) => `social:p${i}`);
    expect(mergeIdentities([], many)).toHaveLength(MAX_SESSION_IDENTITIES);
    expect(() => mergeIdentities(ids('email:otp'), many)).toThrow(InvalidIdentitiesError);
  });
});

describe('sessionIdentitiesUpdateSchema', () => {
  it('when the body is well-formed, then it parses; otherwise zod reports the bad entry', () => {
    expect(sessionIdentitiesUpdateSchema.parse({ session_identities: ['email:otp'] })).toEqual({ session_identities: ['email:otp'] });
    const r = sessionIdentitiesUpdateSchema.safeParse({ session_identities: ['email:otp', 'nope'] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['session_identities', 1]);
    expect(sessionIdentitiesUpdateSchema.safeParse({}).success).toBe(false);
  });
});
