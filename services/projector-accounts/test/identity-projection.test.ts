// Given/when/then tests of the sign-in projection: one user per e-mail, identities stay with their
// user, auto-join adds viewer memberships, sign-out records the session.
import { describe, expect, it } from 'vitest';
import type { DecodedEvent, EventPayloads } from '@llm/events';
import { projectIdentityEvent, type IdentityEvent } from '../src/domain/identity-projection.ts';

const USER = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const ORG = '00000000-0000-4000-8000-00000000000a';

function ev<T extends IdentityEvent['type']>(type: T, payload: EventPayloads[T]): DecodedEvent<T> {
  return { eventId: 'e', type, schemaVersion: 1, projectId: '', organizationId: '', timeUs: 1_700_000_000_000_000, requestId: '', actorId: '', aggregateId: '', expectedVersion: 0, payload };
}
const signedIn = (over: Partial<EventPayloads['accounts.identity.signed_in']> = {}) => ev('accounts.identity.signed_in', {
  user_id: USER, email: 'kim@acme.com', name: 'Kim', create_user: true, method: 'sso:acme:okta', subject: 'kim-1', issuer: 'https://idp', auto_join_organization_id: '', ...over,
});
const texts = (p: ReturnType<typeof projectIdentityEvent>): string[] => (p.status === 'applied' ? p.statements.map((s) => s.text.replace(/\s+/g, ' ')) : []);

describe('identity projection', () => {
  it('given no user with the e-mail, when a first sign-in arrives, then the user and the identity are stored', () => {
    const p = projectIdentityEvent(signedIn(), { userExists: false });
    expect(p.status).toBe('applied');
    expect(texts(p)[0]).toMatch(/^INSERT INTO users/);
    expect(texts(p)[1]).toMatch(/^INSERT INTO user_identities .* ON CONFLICT \(method, issuer, subject\) DO UPDATE SET last_signed_in_at/);
    expect(texts(p)).toHaveLength(2);
  });

  it('when the same subject signs in from another issuer, then it is another identity (keyed by method, issuer and subject)', () => {
    const p = projectIdentityEvent(signedIn({ create_user: false, issuer: 'https://elsewhere' }), { userExists: true, emailOwner: USER });
    const [identity] = p.status === 'applied' ? p.statements : [];
    expect(identity!.values.slice(0, 4)).toEqual([USER, 'sso:acme:okta', 'kim-1', 'https://elsewhere']);
    expect(identity!.text).toMatch(/ON CONFLICT \(method, issuer, subject\) DO UPDATE SET last_signed_in_at = EXCLUDED.last_signed_in_at\s+WHERE user_identities.user_id = EXCLUDED.user_id/);
  });

  it('given the e-mail was taken meanwhile, when a first sign-in arrives, then it is rejected (the command links instead)', () => {
    expect(projectIdentityEvent(signedIn(), { userExists: false, emailOwner: OTHER })).toEqual({ status: 'rejected', reason: "User with email 'kim@acme.com' already exists." });
  });

  it('given the user exists, when a returning sign-in arrives, then only the identity is recorded', () => {
    const p = projectIdentityEvent(signedIn({ create_user: false }), { userExists: true, emailOwner: USER });
    expect(texts(p)).toHaveLength(1);
    expect(projectIdentityEvent(signedIn({ create_user: false }), { userExists: false })).toMatchObject({ status: 'rejected', reason: 'User not found' });
    expect(projectIdentityEvent(signedIn({ create_user: false }), { userExists: true, emailOwner: OTHER }).status).toBe('rejected');
  });

  it('given auto-join, when the sign-in is applied, then the user becomes a viewer of the organization, its workspaces and projects', () => {
    const p = projectIdentityEvent(signedIn({ auto_join_organization_id: ORG }), { userExists: false });
    const joins = texts(p).filter((t) => t.startsWith('INSERT INTO memberships'));
    expect(joins.map((t) => /SELECT '(\w+)'/.exec(t)?.[1])).toEqual(['organization', 'workspace', 'project']);
    expect(joins.every((t) => t.endsWith('ON CONFLICT DO NOTHING'))).toBe(true);
    if (p.status === 'applied') expect(p.statements.at(-1)!.values).toEqual([ORG, USER, 'viewer', expect.any(String)]);
  });

  it('when a session is revoked, then its id is recorded until its expiry, idempotently', () => {
    const p = projectIdentityEvent(ev('accounts.session.revoked', { sid: 's'.repeat(22), user_id: USER, expires_at_us: 1_800_000_000_000_000 }), { userExists: true });
    expect(texts(p)[0]).toMatch(/INSERT INTO revoked_sessions .* ON CONFLICT \(sid\) DO NOTHING/);
    if (p.status === 'applied') expect(p.statements[0]!.values[2]).toBe(new Date(1_800_000_000_000).toISOString());
  });
});
