// Given/when/then of the user aggregate: one user per e-mail (whatever its case), one organization
// per slug, sign-ins that create or link, deletions that take the user's organizations along.
import { describe, expect, it } from 'vitest';
import { decideSsoSignIn, user } from '../src/aggregates/user.ts';
import { REJECTION_KINDS } from '../src/registry.ts';
import { ev, given } from './support/given.ts';

const KIM = '00000000-0000-4000-8000-000000000001';
const LEE = '00000000-0000-4000-8000-000000000002';
const ORG = '00000000-0000-4000-8000-00000000000a';
const ORG_2 = '00000000-0000-4000-8000-00000000000b';

const provisioned = (id = KIM, email = 'kim@acme.com', slug = 'acme', org = ORG) => ev('accounts.account.provisioned', {
  user: { id, email, name: '', username: email.split('@')[0]! },
  organization: { id: org, name: 'Acme', slug },
  workspace: { id: '00000000-0000-4000-8000-0000000000c1', name: 'Default', slug: 'default' },
  project: { id: '00000000-0000-4000-8000-0000000000d1', name: 'Default', slug: 'default' },
  api_key: null,
});
const deleted = (id = KIM, email = 'kim@acme.com') => ev('accounts.user.deleted', { user_id: id, email });
const signedIn = (over: Partial<{ user_id: string; email: string; create_user: boolean }> = {}) => ev('accounts.identity.signed_in', {
  user_id: KIM, email: 'kim@acme.com', name: 'Kim', create_user: true, method: 'sso:acme:okta', subject: 'kim-1', issuer: 'https://idp', auto_join_organization_id: '', ...over,
});

describe('user aggregate', () => {
  it('given nothing, when an account is provisioned, then the user and the organization it owns exist', () => {
    const t = given(user, []).when(provisioned());
    expect(t.decision.status).toBe('accepted');
    expect(t.state).toEqual({ users: [{ id: KIM, email: 'kim@acme.com' }], organizations: [{ id: ORG, slug: 'acme', ownerId: KIM }] });
  });

  it('given the e-mail is taken (in any case) or the id exists, when an account is provisioned, then user_exists naming the e-mail', () => {
    const h = given(user, [provisioned()]);
    expect(h.when(provisioned(LEE, 'KIM@Acme.com', 'other', ORG_2)).decision).toEqual({
      status: 'rejected', code: 'user_exists', message: "User with email 'KIM@Acme.com' already exists.", details: { email: 'KIM@Acme.com' },
    });
    expect(h.when(provisioned(KIM, 'new@acme.com', 'other', ORG_2)).decision).toMatchObject({ code: 'user_exists' });
  });

  it('given the organization slug is taken, when an account is provisioned, then organization_slug_exists', () => {
    const t = given(user, [provisioned()]).when(provisioned(LEE, 'lee@acme.com', 'acme', ORG_2));
    expect(t.decision).toEqual({ status: 'rejected', code: 'organization_slug_exists', message: "Organization slug 'acme' already exists.", details: { slug: 'acme' } });
    expect(t.state.users).toHaveLength(1);
  });

  it('given a user, when deleted, then the user and the organizations they own are gone and the e-mail and slug are free', () => {
    const h = given(user, [provisioned(), provisioned(LEE, 'lee@acme.com', 'lee', ORG_2), deleted()]);
    expect(h.state).toEqual({ users: [{ id: LEE, email: 'lee@acme.com' }], organizations: [{ id: ORG_2, slug: 'lee', ownerId: LEE }] });
    expect(h.when(provisioned(KIM, 'kim@acme.com', 'acme')).decision.status).toBe('accepted');
  });

  it('given no such user, when deleted, then it is accepted and changes nothing', () => {
    const t = given(user, [provisioned()]).when(deleted(LEE, 'lee@acme.com'));
    expect(t.decision.status).toBe('accepted');
    expect(t.state.users).toEqual([{ id: KIM, email: 'kim@acme.com' }]);
  });

  it('given nobody holds the e-mail, when a first sign-in arrives, then the user is created', () => {
    const t = given(user, []).when(signedIn());
    expect(t.decision.status).toBe('accepted');
    expect(t.state.users).toEqual([{ id: KIM, email: 'kim@acme.com' }]);
  });

  it('given the e-mail was taken meanwhile, when a first sign-in arrives, then user_exists (the command links instead)', () => {
    const h = given(user, [provisioned(LEE, 'Kim@acme.com', 'lee', ORG_2)]);
    expect(h.when(signedIn()).decision).toMatchObject({ code: 'user_exists', details: { email: 'kim@acme.com' } });
  });

  it('given the user, when a returning sign-in arrives, then it is accepted and the users are unchanged', () => {
    const h = given(user, [provisioned()]);
    const t = h.when(signedIn({ create_user: false }));
    expect(t.decision.status).toBe('accepted');
    expect(t.state).toEqual(h.state);
  });

  it('when a returning sign-in names an unknown user, then user_not_found; when another user holds its e-mail, then user_exists', () => {
    expect(given(user, []).when(signedIn({ create_user: false })).decision).toEqual({ status: 'rejected', code: 'user_not_found', message: 'User not found' });
    const h = given(user, [provisioned(), provisioned(LEE, 'lee@acme.com', 'lee', ORG_2)]);
    expect(h.when(signedIn({ create_user: false, user_id: LEE })).decision).toMatchObject({ code: 'user_exists' });
  });

  it('rejection kinds: the HTTP answers of today', () => {
    expect(user.rejections).toEqual({ user_exists: 'conflict', user_not_found: 'not_found', organization_slug_exists: 'conflict', sso_domain_not_owned: 'forbidden' });
    for (const [code, kind] of Object.entries(user.rejections)) expect(REJECTION_KINDS[code as keyof typeof REJECTION_KINDS]).toBe(kind);
  });

  it('command rule: an SSO provider signs in only people of domains its organization verified or nobody did', () => {
    const base = { domain: 'acme.com', organizationId: ORG, domainOwner: undefined, linked: false, emailTaken: false };
    expect(decideSsoSignIn(base).status).toBe('accepted');
    expect(decideSsoSignIn({ ...base, domainOwner: ORG, emailTaken: true }).status).toBe('accepted');
    expect(decideSsoSignIn({ ...base, domainOwner: ORG_2 })).toEqual({
      status: 'rejected', code: 'sso_domain_not_owned', message: 'This identity provider cannot sign in users of acme.com.',
    });
    expect(decideSsoSignIn({ ...base, emailTaken: true })).toMatchObject({ code: 'sso_domain_not_owned' });
    expect(decideSsoSignIn({ ...base, domainOwner: ORG_2, linked: true }).status).toBe('accepted');
  });

  it('given nothing, when a user alone is created, then the user exists without an organization', () => {
    const t = given(user, []).when(ev('accounts.user.created', { user: { id: KIM, email: 'kim@acme.com', name: '', username: 'kim' } }));
    expect(t.decision.status).toBe('accepted');
    expect(t.state).toEqual({ users: [{ id: KIM, email: 'kim@acme.com' }], organizations: [] });
  });

  it('given the e-mail is taken (in any case), when a user alone is created, then user_exists', () => {
    const t = given(user, [provisioned()]).when(ev('accounts.user.created', { user: { id: LEE, email: 'Kim@ACME.com', name: '', username: 'kim' } }));
    expect(t.decision).toMatchObject({ status: 'rejected', code: 'user_exists' });
  });
});
