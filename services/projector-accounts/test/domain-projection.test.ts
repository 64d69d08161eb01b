// Given/when/then tests of the organization-domain projection: who may claim and verify a name.
import { describe, expect, it } from 'vitest';
import type { DecodedEvent, EventPayloads } from '@llm/events';
import { projectDomainEvent, type DomainEvent, type DomainFacts } from '../src/domain/domain-projection.ts';

const ORG_A = '00000000-0000-4000-8000-00000000000a';
const ORG_B = '00000000-0000-4000-8000-00000000000b';
const ID = '00000000-0000-4000-8000-000000000001';

function ev<T extends DomainEvent['type']>(type: T, payload: EventPayloads[T]): DecodedEvent<T> {
  return { eventId: 'e', type, schemaVersion: 1, projectId: '', organizationId: '', timeUs: 1_700_000_000_000_000, requestId: '', actorId: '', aggregateId: '', expectedVersion: 0, payload };
}
const issued = (org = ORG_A) => ev('accounts.domain.token_issued', { domain_id: ID, organization_id: org, domain: 'x.org', name: '', description: '', token: 't1', issued_at_us: 1_700_000_000_000_000 });
const verified = (org = ORG_A, token = 't1') => ev('accounts.domain.verified', { domain_id: ID, organization_id: org, domain: 'x.org', token });
const none: DomainFacts = { nameTakenInOrg: false };

describe('domain projection', () => {
  it('given nothing, when a token is issued, then the domain is stored unverified with it', () => {
    const p = projectDomainEvent(issued(), none);
    expect(p.status).toBe('applied');
    if (p.status === 'applied') expect(p.statements[0]!.values).toContain('t1');
  });

  it('given another organization verified the name, when a token is issued or a verification arrives, then it is rejected', () => {
    expect(projectDomainEvent(issued(), { ...none, verifiedBy: ORG_B })).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/another organization/) });
    expect(projectDomainEvent(verified(), { ...none, row: { domain: 'x.org', token: 't1', isVerified: false }, verifiedBy: ORG_B }))
      .toMatchObject({ status: 'rejected', reason: expect.stringMatching(/another organization/) });
  });

  it('given the token changed after the DNS check, when the verification arrives, then it is rejected', () => {
    expect(projectDomainEvent(verified(ORG_A, 't1'), { ...none, row: { domain: 'x.org', token: 't2', isVerified: false } }).status).toBe('rejected');
  });

  it('given the current token, when the verification arrives, then the domain is verified and the token cleared', () => {
    const p = projectDomainEvent(verified(), { ...none, row: { domain: 'x.org', token: 't1', isVerified: false } });
    expect(p.status).toBe('applied');
    if (p.status === 'applied') expect(p.statements[0]!.text).toMatch(/is_verified = true, token = NULL/);
  });

  it('given no such domain in the organization, when verified or deleted, then "Domain not found"', () => {
    expect(projectDomainEvent(verified(), none)).toEqual({ status: 'rejected', reason: 'Domain not found' });
    expect(projectDomainEvent(ev('accounts.domain.deleted', { domain_id: ID, organization_id: ORG_A, domain: 'x.org' }), none)).toEqual({ status: 'rejected', reason: 'Domain not found' });
  });
});
