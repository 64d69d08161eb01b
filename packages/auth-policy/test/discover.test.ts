import { describe, expect, it } from 'vitest';
import { authMethodsEnv, discoverMethods, type DiscoverCandidate } from '../src/index.ts';

const OKTA = { id: '11111111-1111-4111-8111-111111111111', slug: 'okta', organization_slug: 'acme' };
const AZURE = { id: '22222222-2222-4222-8222-222222222222', slug: 'azure', organization_slug: 'beta' };
const deployment = { email: 'password' as const, social: ['github', 'google'] };
const org = (over: Partial<DiscoverCandidate>): DiscoverCandidate => ({ flags: { is_demo: false }, ownsEmailDomain: false, activeProviders: [], ...over });

describe('discoverMethods', () => {
  it('without organizations offers the deployment methods', () => {
    expect(discoverMethods({ exists: false, candidates: [], deployment })).toEqual({
      exists: false, methods: { 'email:password': true, 'social:github': true, 'social:google': true },
    });
    expect(discoverMethods({ exists: true, candidates: [], deployment: { social: [] } })).toEqual({ exists: true, methods: {} });
  });

  it('organizations without policy flags do not count', () => {
    expect(discoverMethods({ exists: true, candidates: [org({ flags: {} }), org({ flags: null, activeProviders: [OKTA], ownsEmailDomain: true })], deployment }).methods)
      .toEqual({ 'email:password': true, 'social:github': true, 'social:google': true });
  });

  it('enforces SSO for the owner of the verified e-mail domain with an active provider', () => {
    const r = discoverMethods({ exists: true, candidates: [org({ ownsEmailDomain: true, activeProviders: [OKTA], flags: { allow_email: true } }), org({ flags: { allow_email: true } })], deployment });
    expect(r.methods).toEqual({ sso: { providers: [{ id: OKTA.id, slug: 'okta', third_party_id: 'sso:acme:okta' }] } });
  });

  it('a verified domain without an active provider enforces nothing', () => {
    const r = discoverMethods({ exists: false, candidates: [org({ ownsEmailDomain: true, flags: { allow_email: true, allow_social: false } })], deployment });
    expect(r.methods).toEqual({ 'email:password': true });
  });

  it('unions the methods the candidate organizations allow, with providers only where SSO is allowed', () => {
    const r = discoverMethods({
      exists: true,
      candidates: [
        org({ flags: { allow_email: false, allow_social: true, allow_sso: false }, activeProviders: [OKTA] }),
        org({ flags: { allow_email: false, allow_social: false, allow_sso: true }, activeProviders: [AZURE] }),
      ],
      deployment,
    });
    expect(r.methods).toEqual({ 'social:github': true, 'social:google': true, sso: { providers: [{ id: AZURE.id, slug: 'azure', third_party_id: 'sso:beta:azure' }] } });
  });

  it('never reports a method as false and names no organization', () => {
    const r = discoverMethods({ exists: true, candidates: [org({ flags: { allow_email: false, allow_social: false, allow_sso: false } })], deployment });
    expect(r.methods).toEqual({});
    expect(JSON.stringify(discoverMethods({ exists: true, candidates: [org({ flags: { allow_sso: true }, activeProviders: [OKTA] })], deployment }))).not.toMatch(/Acme Corp/);
  });
});

describe('authMethodsEnv', () => {
  it('defaults to no e-mail and no social sign-in, and refuses unknown providers', () => {
    expect(authMethodsEnv.parse({})).toEqual({ AUTH_EMAIL_METHOD: 'none', AUTH_SOCIAL_PROVIDERS: [] });
    expect(authMethodsEnv.parse({ AUTH_EMAIL_METHOD: 'otp', AUTH_SOCIAL_PROVIDERS: 'github, google' })).toEqual({ AUTH_EMAIL_METHOD: 'otp', AUTH_SOCIAL_PROVIDERS: ['github', 'google'] });
    expect(authMethodsEnv.safeParse({ AUTH_SOCIAL_PROVIDERS: 'myspace' }).success).toBe(false);
  });
});
