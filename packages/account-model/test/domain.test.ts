// Given/when/then of the organization-domain aggregate: who may claim and verify a name.
import { describe, expect, it } from 'vitest';
import { decideClaim, decideChange, decideRenewal, decideVerify, domain } from '../src/aggregates/domain.ts';
import { ev, given } from './support/given.ts';

const ORG_A = '00000000-0000-4000-8000-00000000000a';
const ORG_B = '00000000-0000-4000-8000-00000000000b';
const ID = '00000000-0000-4000-8000-000000000001';
const ID_B = '00000000-0000-4000-8000-000000000002';

const issued = (org = ORG_A, id = ID, token = 't1') =>
  ev('accounts.domain.token_issued', { domain_id: id, organization_id: org, domain: 'x.org', name: '', description: '', token, issued_at_us: 1 });
const verified = (org = ORG_A, id = ID, token = 't1') => ev('accounts.domain.verified', { domain_id: id, organization_id: org, domain: 'x.org', token });
const deleted = (org = ORG_A, id = ID) => ev('accounts.domain.deleted', { domain_id: id, organization_id: org, domain: 'x.org' });

describe('domain aggregate', () => {
  it('given nothing, when a token is issued, then the claim is unverified with that token', () => {
    const t = given(domain, []).when(issued());
    expect(t.decision.status).toBe('accepted');
    expect(t.state.claims).toEqual([{ id: ID, organizationId: ORG_A, domain: 'x.org', token: 't1', verified: false }]);
  });

  it('given another organization verified the name, when a token is issued or a verification arrives, then domain_verified', () => {
    const h = given(domain, [issued(ORG_B, ID_B), verified(ORG_B, ID_B)]);
    expect(h.when(issued()).decision).toMatchObject({ status: 'rejected', code: 'domain_verified', message: expect.stringMatching(/another organization/) });
    const mine = given(domain, [issued(), issued(ORG_B, ID_B), verified(ORG_B, ID_B)]);
    expect(mine.when(verified()).decision).toMatchObject({ code: 'domain_verified' });
  });

  it('given two organizations claimed a name, when the first verifies, then the second may no longer', () => {
    const h = given(domain, [issued(ORG_A), issued(ORG_B, ID_B, 't2'), verified(ORG_A)]);
    expect(h.when(verified(ORG_B, ID_B, 't2')).decision).toMatchObject({ code: 'domain_verified' });
  });

  it('given the organization claimed the name under another id, when a token is issued, then domain_claimed', () => {
    expect(given(domain, [issued(ORG_A, ID_B)]).when(issued()).decision).toMatchObject({ code: 'domain_claimed' });
  });

  it('given the token was refreshed after the DNS check, when the verification arrives, then domain_token_changed', () => {
    const t = given(domain, [issued(), issued(ORG_A, ID, 't2')]).when(verified(ORG_A, ID, 't1'));
    expect(t.decision).toMatchObject({ code: 'domain_token_changed' });
    expect(t.state.claims[0]).toMatchObject({ verified: false, token: 't2' });
  });

  it('given the current token, when the verification arrives, then the claim is verified and the token cleared', () => {
    const t = given(domain, [issued()]).when(verified());
    expect(t.decision.status).toBe('accepted');
    expect(t.state.claims).toEqual([{ id: ID, organizationId: ORG_A, domain: 'x.org', token: null, verified: true }]);
  });

  it('given no such claim in the organization, when verified or deleted, then domain_not_found', () => {
    expect(given(domain, []).when(verified()).decision).toMatchObject({ code: 'domain_not_found' });
    expect(given(domain, [issued(ORG_B)]).when(deleted(ORG_A)).decision).toMatchObject({ code: 'domain_not_found' });
  });

  it('given a verified claim, when deleted, then it is gone and the name is free for another organization', () => {
    const h = given(domain, [issued(), verified(), deleted()]);
    expect(h.state.claims).toEqual([]);
    expect(h.when(issued(ORG_B, ID_B)).decision.status).toBe('accepted');
  });

  it('command rules: claim, verify, refresh/reset, change', () => {
    const s = given(domain, [issued(), verified()]).state;
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
    expect(given(domain, [issued()]).when(verified(ORG_A.toUpperCase(), ID.toUpperCase())).decision.status).toBe('accepted');
    expect(given(domain, [issued(), verified()]).when(issued(ORG_A.toUpperCase())).decision.status).toBe('accepted');
  });
});
