// Given/when/then of the membership aggregate: roles in existing organizations for existing users,
// known roles only, and the owner keeps the owner role.
import { describe, expect, it } from 'vitest';
import { membership, REJECTION_KINDS, type Decision, type MembershipState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

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

const codeOf = (d: Decision): string | undefined => (d.status === 'rejected' ? d.code : undefined);
/** The world with Kim holding `role` in the organization. */
const kimAs = (role: string): MembershipState => ({ ...world, members: [...world.members, { organizationId: ORG, userId: KIM, role }] });

describe('membership aggregate', () => {
  it('given an organization and a user, when a role is set, then it is accepted; given a member, when the role is changed, then it is accepted', () => {
    expect(decideOn(membership, world, set('developer')).status).toBe('accepted');
    expect(decideOn(membership, kimAs('developer'), set('admin')).status).toBe('accepted');
  });

  it('given a member, when removed, then it is accepted; removing a non-member is accepted too', () => {
    expect(decideOn(membership, kimAs('viewer'), removed()).status).toBe('accepted');
    expect(decideOn(membership, world, removed()).status).toBe('accepted');
  });

  it('when the organization or the user is unknown, then organization_not_found or user_not_found', () => {
    const other = '00000000-0000-4000-8000-0000000000ff';
    expect(decideOn(membership, world, set('viewer', KIM, other))).toEqual({ status: 'rejected', code: 'organization_not_found', message: 'Organization not found' });
    expect(decideOn(membership, world, removed(other))).toEqual({ status: 'rejected', code: 'user_not_found', message: 'User not found' });
  });

  it("when the owner's role is set or removed, then owner_role_fixed", () => {
    expect(decideOn(membership, world, set('viewer', OWNER))).toEqual({ status: 'rejected', code: 'owner_role_fixed', message: "The organization's owner keeps the owner role" });
    expect(decideOn(membership, world, removed(OWNER))).toMatchObject({ code: 'owner_not_removable' });
  });

  it('when the role is unknown, then unknown_role', () => {
    expect(decideOn(membership, world, set('root'))).toEqual({ status: 'rejected', code: 'unknown_role', message: "Unknown role 'root'" });
  });

  it('ids are compared without regard to case (UUIDs)', () => {
    expect(decideOn(membership, world, set('viewer', KIM.toUpperCase(), ORG.toUpperCase())).status).toBe('accepted');
  });

  it('rejection kinds: 404, 404, 409, 403 (nested), 400, 422, 404', () => {
    expect(membership.rejections).toEqual({
      organization_not_found: 'not_found', user_not_found: 'not_found', owner_role_fixed: 'conflict', owner_not_removable: { kind: 'forbidden', body: 'nested' },
      owner_role_by_transfer: 'invalid', unknown_role: 'unprocessable', membership_scope_not_found: 'not_found',
    });
    for (const [code, p] of Object.entries(membership.rejections)) expect(REJECTION_KINDS[code as keyof typeof REJECTION_KINDS]).toBe(typeof p === 'string' ? p : p.kind);
  });

  it('given a member, when someone is made the organization owner by a membership, then it is refused (ownership moves by a transfer)', () => {
    expect(codeOf(decideOn(membership, world, set('owner')))).toBe('owner_role_by_transfer');
  });

  describe('roles in one workspace or project', () => {
    const PRJ = '00000000-0000-4000-8000-0000000000b1';
    const ELSEWHERE = '00000000-0000-4000-8000-0000000000b2';
    const scoped = { ...world, targets: [{ kind: 'project' as const, id: PRJ, organizationId: ORG }] };
    const setIn = (scope: 'workspace' | 'project', id: string, role: string) =>
      ev('accounts.membership.set', { organization_id: ORG, user_id: KIM, role, scope, scope_id: id });

    it('given a project of the organization, when a user gets a role in it (owner included), then it is accepted and the organization members are unchanged', () => {
      expect(decideOn(membership, scoped, setIn('project', PRJ, 'owner')).status).toBe('accepted');
    });

    it('given a project that does not exist (or not in this organization), when a role is set in it, then 404', () => {
      expect(codeOf(decideOn(membership, scoped, setIn('project', ELSEWHERE, 'viewer')))).toBe('membership_scope_not_found');
      expect(codeOf(decideOn(membership, scoped, setIn('workspace', PRJ, 'viewer')))).toBe('membership_scope_not_found');
    });

    it('given a member of the organization, when a project role is removed, then it is accepted', () => {
      const withKim = { ...scoped, members: [...world.members, { organizationId: ORG, userId: KIM, role: 'admin' }] };
      expect(decideOn(membership, withKim, ev('accounts.membership.removed', { organization_id: ORG, user_id: KIM, scope: 'project', scope_id: PRJ })).status).toBe('accepted');
    });
  });
});
