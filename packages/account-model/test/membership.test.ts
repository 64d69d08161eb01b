// Given/when/then of the membership aggregate: roles in existing organizations for existing users,
// known roles only, and the owner keeps the owner role.
import { describe, expect, it } from 'vitest';
import { decideMemberRef, membership, type MembershipState } from '../src/aggregates/membership.ts';
import { REJECTION_KINDS } from '../src/registry.ts';
import { ev, given } from './support/given.ts';

const ORG = '00000000-0000-4000-8000-00000000000a';
const OWNER = '00000000-0000-4000-8000-000000000001';
const KIM = '00000000-0000-4000-8000-000000000002';
const world: MembershipState = {
  organizations: [{ id: ORG, ownerId: OWNER }],
  users: [{ id: OWNER }, { id: KIM }],
  members: [{ organizationId: ORG, userId: OWNER, role: 'owner' }],
};
const set = (role: string, user = KIM, org = ORG) => ev('accounts.membership.set', { organization_id: org, user_id: user, role });
const removed = (user = KIM, org = ORG) => ev('accounts.membership.removed', { organization_id: org, user_id: user });

describe('membership aggregate', () => {
  it('given an organization and a user, when a role is set and changed, then the member has the last role', () => {
    const t = given(membership, [set('developer')], world).when(set('admin'));
    expect(t.decision.status).toBe('accepted');
    expect(t.state.members).toEqual([world.members[0], { organizationId: ORG, userId: KIM, role: 'admin' }]);
  });

  it('given a member, when removed, then the membership is gone; removing a non-member is accepted too', () => {
    const h = given(membership, [set('viewer'), removed()], world);
    expect(h.state.members).toEqual(world.members);
    expect(h.when(removed()).decision.status).toBe('accepted');
  });

  it('when the organization or the user is unknown, then organization_not_found or user_not_found', () => {
    const other = '00000000-0000-4000-8000-0000000000ff';
    expect(given(membership, [], world).when(set('viewer', KIM, other)).decision).toEqual({ status: 'rejected', code: 'organization_not_found', message: 'Organization not found' });
    expect(given(membership, [], world).when(removed(other)).decision).toEqual({ status: 'rejected', code: 'user_not_found', message: 'User not found' });
  });

  it("when the owner's role is set or removed, then owner_role_fixed", () => {
    const h = given(membership, [], world);
    expect(h.when(set('viewer', OWNER)).decision).toEqual({ status: 'rejected', code: 'owner_role_fixed', message: "The organization's owner keeps the owner role" });
    expect(h.when(removed(OWNER)).decision).toMatchObject({ code: 'owner_role_fixed' });
  });

  it('when the role is unknown, then unknown_role', () => {
    expect(given(membership, [], world).when(set('root')).decision).toEqual({ status: 'rejected', code: 'unknown_role', message: "Unknown role 'root'" });
  });

  it('ids are compared without regard to case (UUIDs)', () => {
    expect(given(membership, [], world).when(set('viewer', KIM.toUpperCase(), ORG.toUpperCase())).decision.status).toBe('accepted');
  });

  it('rejection kinds: 404, 404, 409, 422', () => {
    expect(membership.rejections).toEqual({ organization_not_found: 'not_found', user_not_found: 'not_found', owner_role_fixed: 'conflict', unknown_role: 'unprocessable' });
    for (const [code, kind] of Object.entries(membership.rejections)) expect(REJECTION_KINDS[code as keyof typeof REJECTION_KINDS]).toBe(kind);
  });

  it('command rule: the user an operator names must exist', () => {
    expect(decideMemberRef(undefined)).toEqual({ status: 'rejected', code: 'user_not_found', message: 'User not found' });
    expect(decideMemberRef({ id: KIM }).status).toBe('accepted');
  });
});
