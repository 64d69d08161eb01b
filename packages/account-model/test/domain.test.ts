// Given/when/then of the organization-domain aggregate: who may claim and verify a name.
import { describe, expect, it } from 'vitest';
import { decideClaim, decideChange, decideRenewal, decideVerify, domain, type DomainClaim, type DomainState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

const ORG_A = '00000000-0000-4000-8000-00000000000a';
const ORG_B = '00000000-0000-4000-8000-00000000000b';
const ID = '00000000-0000-4000-8000-000000000001';
const ID_B = '00000000-0000-4000-8000-000000000002';

const issued = (org = ORG_A, id = ID, token = 't1') =>
  ev('accounts.domain.token_issued', { domain_id: id, organization_id: org, domain: 'x.org', name: '', description: '', token, issued_at_us: 1 });
const verified = (org = ORG_A, id = ID, token = 't1') => ev('accounts.domain.verified', { domain_id: id, organization_id: org, domain: 'x.org', token });
const deleted = (org = ORG_A, id = ID) => ev('accounts.domain.deleted', { domain_id: id, organization_id: org, domain: 'x.org' });

/** A claim on x.org: unverified with its token, or verified (token cleared). */
const pending = (org = ORG_A, id = ID, token = 't1'): DomainClaim => ({ id, organizationId: org, domain: 'x.org', token, verified: false });
const verifiedClaim = (org = ORG_A, id = ID): DomainClaim => ({ id, organizationId: org, domain: 'x.org', token: null, verified: true });
const nothing: DomainState = { claims: [] };
const claims = (...c: DomainClaim[]): DomainState => ({ claims: c });

describe('domain aggregate', () => {
  it('given nothing, when a token is issued, then it is accepted', () => {
    expect(decideOn(domain, nothing, issued()).status).toBe('accepted');
  });

  it('given another organization verified the name, when a token is issued or a verification arrives, then domain_verified', () => {
    expect(decideOn(domain, claims(verifiedClaim(ORG_B, ID_B)), issued()))
      .toMatchObject({ status: 'rejected', code: 'domain_verified', message: expect.stringMatching(/another organization/) });
    expect(decideOn(domain, claims(pending(), verifiedClaim(ORG_B, ID_B)), verified())).toMatchObject({ code: 'domain_verified' });
  });

  it('given two organizations claimed a name, when the first verifies, then the second may no longer', () => {
    expect(decideOn(domain, claims(pending(), pending(ORG_B, ID_B, 't2')), verified(ORG_A)).status).toBe('accepted');
    expect(decideOn(domain, claims(verifiedClaim(), pending(ORG_B, ID_B, 't2')), verified(ORG_B, ID_B, 't2'))).toMatchObject({ code: 'domain_verified' });
  });

  it('given the organization claimed the name under another id, when a token is issued, then domain_claimed', () => {
    expect(decideOn(domain, claims(pending(ORG_A, ID_B)), issued())).toMatchObject({ code: 'domain_claimed' });
  });

  it('given the token was refreshed after the DNS check, when the verification arrives, then domain_token_changed', () => {
    expect(decideOn(domain, claims(pending(ORG_A, ID, 't2')), verified(ORG_A, ID, 't1'))).toMatchObject({ code: 'domain_token_changed' });
  });

  it('given the current token, when the verification arrives, then it is accepted', () => {
    expect(decideOn(domain, claims(pending()), verified()).status).toBe('accepted');
  });

  it('given no such claim in the organization, when verified or deleted, then domain_not_found', () => {
    expect(decideOn(domain, nothing, verified())).toMatchObject({ code: 'domain_not_found' });
    expect(decideOn(domain, claims(pending(ORG_B)), deleted(ORG_A))).toMatchObject({ code: 'domain_not_found' });
  });

  it('given a verified claim, when deleted, then it is accepted; with no claim left, the name is free for another organization', () => {
    expect(decideOn(domain, claims(verifiedClaim()), deleted()).status).toBe('accepted');
    expect(decideOn(domain, nothing, issued(ORG_B, ID_B)).status).toBe('accepted');
  });

  it('command rules: claim, verify, refresh/reset, change', () => {
    const s = claims(verifiedClaim());
    expect(decideClaim(s, ORG_A, 'x.org')).toMatchObject({ code: 'domain_verified', message: 'Domain x.org is already verified' });
    expect(decideClaim(s, ORG_B, 'x.org')).toMatchObject({ code: 'domain_verified', message: expect.stringMatching(/another organization/) });
    expect(decideClaim(s, ORG_B, 'y.org').status).toBe('accepted');
    expect(decideVerify({ verified: true, token: null })).toMatchObject({ code: 'domain_already_verified' });
    expect(decideVerify({ verified: false, token: 't' }).status).toBe('accepted');
    expect(decideRenewal('refresh', { verified: true })).toMatchObject({ code: 'domain_verified' });
    expect(decideRenewal('reset', { verified: false })).toMatchObject({ code: 'domain_not_verified' });
    expect(decideChange({ verified: true }, { auto_join: true })).toMatchObject({ code: 'domain_in_use' });
    expect(decideChange({ verified: false }, { auto_join: true }).status).toBe('accepted');
  });

  it('ids name the same claim whatever the case of their hex digits', () => {
    expect(decideOn(domain, claims(pending()), verified(ORG_A.toUpperCase(), ID.toUpperCase())).status).toBe('accepted');
    expect(decideOn(domain, claims(verifiedClaim()), issued(ORG_A.toUpperCase())).status).toBe('accepted');
  });
});
