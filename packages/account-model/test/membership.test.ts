// Given/when/then of the membership aggregate: roles in existing organizations for existing users,
// known roles only, and the owner keeps the owner role.
import { describe, expect, it } from 'vitest';
import { membership, type MembershipState } from '../src/aggregates/membership.ts';
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

const codeOf = (t: { decision: { status: string; code?: string } }): string | undefined => (t.decision.status === 'rejected' ? t.decision.code : undefined);

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

  it('rejection kinds: 404, 404, 409, 400, 422, 404', () => {
    expect(membership.rejections).toEqual({
      organization_not_found: 'not_found', user_not_found: 'not_found', owner_role_fixed: 'conflict', owner_role_by_transfer: 'invalid',
      unknown_role: 'unprocessable', membership_scope_not_found: 'not_found',
    });
    for (const [code, kind] of Object.entries(membership.rejections)) expect(REJECTION_KINDS[code as keyof typeof REJECTION_KINDS]).toBe(kind);
  });

  it('given a member, when someone is made the organization owner by a membership, then it is refused (ownership moves by a transfer)', () => {
    expect(codeOf(given(membership, [], world).when(set('owner')))).toBe('owner_role_by_transfer');
  });

  describe('roles in one workspace or project', () => {
    const PRJ = '00000000-0000-4000-8000-0000000000b1';
    const ELSEWHERE = '00000000-0000-4000-8000-0000000000b2';
    const scoped = { ...world, targets: [{ kind: 'project' as const, id: PRJ, organizationId: ORG }] };
    const setIn = (scope: 'workspace' | 'project', id: string, role: string) =>
      ev('accounts.membership.set', { organization_id: ORG, user_id: KIM, role, scope, scope_id: id });

    it('given a project of the organization, when a user gets a role in it (owner included), then it is accepted and the organization members are unchanged', () => {
      const r = given(membership, [], scoped).when(setIn('project', PRJ, 'owner'));
      expect(r.decision.status).toBe('accepted');
      expect(r.state.members).toEqual(world.members);
    });

    it('given a project that does not exist (or not in this organization), when a role is set in it, then 404', () => {
      expect(codeOf(given(membership, [], scoped).when(setIn('project', ELSEWHERE, 'viewer')))).toBe('membership_scope_not_found');
      expect(codeOf(given(membership, [], scoped).when(setIn('workspace', PRJ, 'viewer')))).toBe('membership_scope_not_found');
    });

    it('given a member of the organization, when a project role is removed, then the organization role stays', () => {
      const withKim = { ...scoped, members: [...world.members, { organizationId: ORG, userId: KIM, role: 'admin' }] };
      const r = given(membership, [], withKim).when(ev('accounts.membership.removed', { organization_id: ORG, user_id: KIM, scope: 'project', scope_id: PRJ }));
      expect(r.state.members).toContainEqual({ organizationId: ORG, userId: KIM, role: 'admin' });
    });
  });
});
