import { describe, expect, it } from 'vitest';
import { evaluateAccess, type AccessInput, type OrganizationAuthFlags } from '../src/index.ts';

const OKTA = { id: '11111111-1111-4111-8111-111111111111', slug: 'okta', organization_slug: 'acme' };
const base = (flags: OrganizationAuthFlags | null, over: Partial<AccessInput> = {}): AccessInput => ({
  organization: { slug: 'acme', flags },
  isOwner: false,
  email: 'ann@acme.com',
  sessionIdentities: ['email:password'],
  userIdentities: ['email:password'],
  activeProviders: [OKTA],
  verifiedDomains: ['acme.com'],
  deployment: { email: 'password', social: ['github'] },
  ...over,
});
const code = (input: AccessInput): string => { const d = evaluateAccess(input); return d.ok ? 'ok' : d.denial.error; };

describe('evaluateAccess', () => {
  it('allows everyone when the organization has no policy flags', () => {
    expect(code(base(null))).toBe('ok');
    expect(code(base({}, { sessionIdentities: [] }))).toBe('ok');
  });

  it('lets the owner in with allow_root, whatever the session holds', () => {
    const flags = { allow_email: false, allow_social: false, allow_sso: true, allow_root: true };
    expect(code(base(flags, { isOwner: true, sessionIdentities: [] }))).toBe('ok');
    expect(code(base(flags, { isOwner: false, sessionIdentities: [] }))).toBe('AUTH_UPGRADE_REQUIRED');
    expect(code(base({ ...flags, allow_root: false }, { isOwner: true, sessionIdentities: [] }))).toBe('AUTH_UPGRADE_REQUIRED');
  });

  it('refuses everything when no method is allowed', () => {
    const d = evaluateAccess(base({ allow_email: false, allow_social: false, allow_sso: false }));
    expect(d).toMatchObject({ ok: false, denial: { error: 'AUTH_UPGRADE_REQUIRED', message: 'No authentication methods are allowed for this organization' } });
  });

  it('takes email and social defaults from the deployment, sso off by default', () => {
    expect(code(base({ is_demo: false }))).toBe('ok');
    expect(code(base({ is_demo: false }, { deployment: { social: [] } }))).toBe('AUTH_UPGRADE_REQUIRED');
    expect(code(base({ is_demo: false }, { sessionIdentities: ['social:github'] }))).toBe('ok');
    expect(code(base({ is_demo: false }, { sessionIdentities: ['sso:acme:okta'] }))).toBe('AUTH_SSO_DENIED');
  });

  it.each([
    // [flags, session identities, expected]
    [{ allow_email: true, allow_social: false, allow_sso: false }, ['email:otp'], 'ok'],
    [{ allow_email: true, allow_social: false, allow_sso: false }, ['social:google'], 'AUTH_UPGRADE_REQUIRED'],
    [{ allow_email: false, allow_social: true, allow_sso: false }, ['social:google'], 'ok'],
    [{ allow_email: false, allow_social: false, allow_sso: true }, ['sso:acme:okta'], 'ok'],
    [{ allow_email: false, allow_social: false, allow_sso: true }, ['email:password'], 'AUTH_UPGRADE_REQUIRED'],
    // another organization's provider proves nothing here
    [{ allow_email: false, allow_social: false, allow_sso: true }, ['sso:other:okta'], 'AUTH_SSO_DENIED'],
    // an inactive (not listed) provider of this organization neither
    [{ allow_email: false, allow_social: false, allow_sso: true }, ['sso:acme:azure'], 'AUTH_SSO_DENIED'],
    [{ allow_email: true, allow_social: false, allow_sso: false }, ['sso:acme:okta'], 'AUTH_SSO_DENIED'],
    [{ allow_email: true, allow_social: false, allow_sso: false }, ['sso:acme:okta', 'email:password'], 'ok'],
  ] as Array<[OrganizationAuthFlags, string[], string]>)('%j with %j → %s', (flags, session, expected) => {
    expect(code(base(flags, { sessionIdentities: session }))).toBe(expected);
  });

  it('names what would satisfy the policy in the denial body', () => {
    const d = evaluateAccess(base({ allow_email: false, allow_social: true, allow_sso: true }, { sessionIdentities: ['email:password'], userIdentities: ['email:password', 'social:github'] }));
    expect(d).toEqual({
      ok: false,
      denial: {
        error: 'AUTH_UPGRADE_REQUIRED', message: 'Additional authentication required',
        required_methods: ['social:*', 'sso:*'], session_identities: ['email:password'], user_identities: ['email:password', 'social:github'],
        sso_providers: [{ id: OKTA.id, slug: 'okta', third_party_id: 'sso:acme:okta' }], current_domain: 'acme.com', allowed_domains: [],
      },
    });
    const sso = evaluateAccess(base({ allow_email: true, allow_sso: false }, { sessionIdentities: ['sso:acme:okta'] }));
    expect(sso.ok === false && sso.denial.required_methods).toEqual(['email:*', 'social:*']);
    expect(sso.ok === false && sso.denial.sso_providers).toEqual([]);
  });

  it('with domains_only admits only e-mails of verified domains, after the method check', () => {
    const flags = { allow_email: true, domains_only: true };
    expect(code(base(flags))).toBe('ok');
    expect(code(base(flags, { email: 'ANN@Acme.COM' }))).toBe('ok');
    const d = evaluateAccess(base(flags, { email: 'ann@gmail.com' }));
    expect(d).toMatchObject({ ok: false, denial: { error: 'AUTH_DOMAIN_DENIED', message: "Your email domain 'gmail.com' is not allowed for this organization", current_domain: 'gmail.com', allowed_domains: ['acme.com'] } });
    expect(code(base(flags, { email: 'ann@gmail.com', sessionIdentities: [] }))).toBe('AUTH_UPGRADE_REQUIRED');
    expect(code(base(flags, { email: undefined }))).toBe('AUTH_DOMAIN_DENIED');
  });
});
