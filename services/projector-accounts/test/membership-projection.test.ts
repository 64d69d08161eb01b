import { describe, expect, it } from 'vitest';
import type { DecodedEvent, EventPayloads } from '@llm/events';
import { projectMembershipEvent, type MembershipEvent, type MembershipFacts } from '../src/domain/membership-projection.ts';

const ORG = '00000000-0000-4000-8000-00000000000a';
const USER = '00000000-0000-4000-8000-000000000001';
function ev<T extends MembershipEvent['type']>(type: T, payload: EventPayloads[T]): DecodedEvent<T> {
  return { eventId: 'e', type, schemaVersion: 1, projectId: '', organizationId: ORG, timeUs: 1_700_000_000_000_000, requestId: '', actorId: '', aggregateId: '', expectedVersion: 0, payload };
}
const ok: MembershipFacts = { organizationExists: true, userExists: true, isOwner: false };

describe('membership projection', () => {
  it('sets a role (insert or update) and removes the user from every level', () => {
    const set = projectMembershipEvent(ev('accounts.membership.set', { organization_id: ORG, user_id: USER, role: 'developer' }), ok);
    expect(set.status === 'applied' && set.statements[0]!.text).toMatch(/ON CONFLICT \(scope, scope_id, user_id\) DO UPDATE SET role/);
    const removed = projectMembershipEvent(ev('accounts.membership.removed', { organization_id: ORG, user_id: USER }), ok);
    expect(removed.status === 'applied' && removed.statements[0]!.text.replace(/\s+/g, ' ')).toMatch(/scope = 'workspace'.*scope = 'project'/);
  });

  it('refuses unknown organizations, users and roles, and never touches the owner', () => {
    const set = ev('accounts.membership.set', { organization_id: ORG, user_id: USER, role: 'viewer' });
    expect(projectMembershipEvent(set, { ...ok, organizationExists: false })).toEqual({ status: 'rejected', reason: 'Organization not found' });
    expect(projectMembershipEvent(set, { ...ok, userExists: false })).toEqual({ status: 'rejected', reason: 'User not found' });
    expect(projectMembershipEvent(set, { ...ok, isOwner: true }).status).toBe('rejected');
    expect(projectMembershipEvent(ev('accounts.membership.set', { organization_id: ORG, user_id: USER, role: 'root' }), ok)).toEqual({ status: 'rejected', reason: "Unknown role 'root'" });
  });
});
