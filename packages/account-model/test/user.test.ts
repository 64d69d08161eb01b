// Given/when/then of the user aggregate: one user per e-mail (whatever its case), one organization
// per slug, sign-ins that create or link, deletions that take the user's organizations along.
import { describe, expect, it } from 'vitest';
import { decideSsoSignIn, REJECTION_KINDS, user, type UserState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

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

const nothing: UserState = { users: [], organizations: [] };
const kim = { id: KIM, email: 'kim@acme.com' };
const lee = { id: LEE, email: 'lee@acme.com' };
/** Kim, owner of organization acme. */
const kimOnly: UserState = { users: [kim], organizations: [{ id: ORG, slug: 'acme', ownerId: KIM }] };
/** Kim (owner of acme) and Lee (owner of lee). */
const kimAndLee: UserState = { users: [kim, lee], organizations: [{ id: ORG, slug: 'acme', ownerId: KIM }, { id: ORG_2, slug: 'lee', ownerId: LEE }] };
const leeOnly: UserState = { users: [lee], organizations: [{ id: ORG_2, slug: 'lee', ownerId: LEE }] };

describe('user aggregate', () => {
  it('given nothing, when an account is provisioned, then it is accepted', () => {
    expect(decideOn(user, nothing, provisioned()).status).toBe('accepted');
  });

  it('given the e-mail is taken (in any case) or the id exists, when an account is provisioned, then user_exists naming the e-mail', () => {
    expect(decideOn(user, kimOnly, provisioned(LEE, 'KIM@Acme.com', 'other', ORG_2))).toEqual({
      status: 'rejected', code: 'user_exists', message: "User with email 'KIM@Acme.com' already exists.", details: { email: 'KIM@Acme.com' },
    });
    expect(decideOn(user, kimOnly, provisioned(KIM, 'new@acme.com', 'other', ORG_2))).toMatchObject({ code: 'user_exists' });
  });

  it('given the organization slug is taken, when an account is provisioned, then organization_slug_exists', () => {
    expect(decideOn(user, kimOnly, provisioned(LEE, 'lee@acme.com', 'acme', ORG_2)))
      .toEqual({ status: 'rejected', code: 'organization_slug_exists', message: "Organization slug 'acme' already exists.", details: { slug: 'acme' } });
  });

  it('given a user, when deleted, then it is accepted; with the user and the organizations they owned gone, the e-mail and slug are free', () => {
    expect(decideOn(user, kimAndLee, deleted()).status).toBe('accepted');
    expect(decideOn(user, leeOnly, provisioned(KIM, 'kim@acme.com', 'acme')).status).toBe('accepted');
  });

  it('given no such user, when deleted, then it is accepted', () => {
    expect(decideOn(user, kimOnly, deleted(LEE, 'lee@acme.com')).status).toBe('accepted');
  });

  it('given nobody holds the e-mail, when a first sign-in arrives, then it is accepted', () => {
    expect(decideOn(user, nothing, signedIn()).status).toBe('accepted');
  });

  it('given the e-mail was taken meanwhile, when a first sign-in arrives, then user_exists (the command links instead)', () => {
    const taken: UserState = { users: [{ id: LEE, email: 'Kim@acme.com' }], organizations: [{ id: ORG_2, slug: 'lee', ownerId: LEE }] };
    expect(decideOn(user, taken, signedIn())).toMatchObject({ code: 'user_exists', details: { email: 'kim@acme.com' } });
  });

  it('given the user, when a returning sign-in arrives, then it is accepted', () => {
    expect(decideOn(user, kimOnly, signedIn({ create_user: false })).status).toBe('accepted');
  });

  it('when a returning sign-in names an unknown user, then user_not_found; when another user holds its e-mail, then user_exists', () => {
    expect(decideOn(user, nothing, signedIn({ create_user: false }))).toEqual({ status: 'rejected', code: 'user_not_found', message: 'User not found' });
    expect(decideOn(user, kimAndLee, signedIn({ create_user: false, user_id: LEE }))).toMatchObject({ code: 'user_exists' });
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

  it('given nothing, when a user alone is created, then it is accepted', () => {
    expect(decideOn(user, nothing, ev('accounts.user.created', { user: { id: KIM, email: 'kim@acme.com', name: '', username: 'kim' } })).status).toBe('accepted');
  });

  it('given the e-mail is taken (in any case), when a user alone is created, then user_exists', () => {
    expect(decideOn(user, kimOnly, ev('accounts.user.created', { user: { id: LEE, email: 'Kim@ACME.com', name: '', username: 'kim' } }))).toMatchObject({ status: 'rejected', code: 'user_exists' });
  });
});
