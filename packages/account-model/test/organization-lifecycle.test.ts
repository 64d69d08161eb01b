// Given/when/then of the organization lifecycle: created once (free slug, existing owner), deleted
// only by its owner and never as the owner's last organization, handed over only by its owner and
// only to a member (the two swap roles).
import { describe, expect, it } from 'vitest';
import { organizationLifecycle, REJECTION_KINDS, type OrganizationLifecycleState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

const O1 = '00000000-0000-4000-8000-0000000000a1';
const U1 = '00000000-0000-4000-8000-0000000000b1';
const U2 = '00000000-0000-4000-8000-0000000000b2';
const created = (o: { slug?: string; owner?: string } = {}) => ev('accounts.organization.created', {
  organization: { id: O1, name: 'Research', slug: o.slug ?? 'research-1a2b3c', plan: 'hobby' }, owner_id: o.owner ?? U1, description: '',
  workspace: { id: '00000000-0000-4000-8000-0000000000c1', name: 'Default', slug: 'default' },
  project: { id: '00000000-0000-4000-8000-0000000000d1', name: 'Default', slug: 'default' },
});
const deleted = (actor = U1) => ev('accounts.organization.deleted', { organization_id: O1, actor_id: actor });
const transferred = (from = U1, to = U2) => ev('accounts.organization.transferred', { organization_id: O1, from_user_id: from, to_user_id: to });
const world = (o: Partial<OrganizationLifecycleState> = {}): OrganizationLifecycleState => ({ slugTaken: false, users: [U1, U2], ownedByActor: 0, members: [], ...o });
const owned = (o: Partial<OrganizationLifecycleState> = {}): OrganizationLifecycleState =>
  world({ organization: { id: O1, ownerId: U1 }, members: [{ userId: U1, role: 'owner' }], ownedByActor: 2, ...o });
/** The organization just created by U1: its slug taken, U1 its owner (no count of owned organizations loaded). */
const justCreated = world({ organization: { id: O1, ownerId: U1 }, slugTaken: true, members: [{ userId: U1, role: 'owner' }] });

describe('organization lifecycle aggregate', () => {
  it('given an existing user, when an organization is created for them, then it is accepted', () => {
    expect(decideOn(organizationLifecycle, world(), created()).status).toBe('accepted');
  });

  it('given the organization exists or its slug is taken, when it is created, then it is a conflict', () => {
    expect(decideOn(organizationLifecycle, justCreated, created({ slug: 'other' }))).toMatchObject({ code: 'organization_exists' });
    expect(decideOn(organizationLifecycle, world({ slugTaken: true }), created())).toMatchObject({ code: 'organization_slug_taken' });
  });

  it('given no such user, when an organization is created for them, then the owner is not found', () => {
    expect(decideOn(organizationLifecycle, world({ users: [] }), created())).toMatchObject({ code: 'organization_owner_not_found' });
  });

  it('given the owner owns two organizations, when they delete one, then it is accepted', () => {
    expect(decideOn(organizationLifecycle, owned(), deleted()).status).toBe('accepted');
  });

  it("given the owner's last organization, when they delete it, then it is refused", () => {
    expect(decideOn(organizationLifecycle, owned({ ownedByActor: 1 }), deleted()))
      .toMatchObject({ code: 'organization_last', message: 'Cannot delete your last organization. You must have at least one organization.' });
  });

  it('given another user or no organization, when a delete is asked, then it is forbidden alike', () => {
    expect(decideOn(organizationLifecycle, owned(), deleted(U2))).toMatchObject({ code: 'organization_owner_only' });
    expect(decideOn(organizationLifecycle, world(), deleted())).toMatchObject({ code: 'organization_owner_only' });
  });

  it('given a member, when the owner transfers to them, then it is accepted', () => {
    expect(decideOn(organizationLifecycle, owned({ members: [{ userId: U1, role: 'owner' }, { userId: U2, role: 'viewer' }] }), transferred()).status).toBe('accepted');
  });

  it('given a non-member target or a caller who is not the owner, when a transfer is asked, then it is refused', () => {
    expect(decideOn(organizationLifecycle, owned(), transferred())).toMatchObject({ code: 'organization_transfer_invalid' });
    const both = owned({ members: [{ userId: U1, role: 'owner' }, { userId: U2, role: 'viewer' }] });
    expect(decideOn(organizationLifecycle, both, transferred(U2, U1))).toMatchObject({ code: 'organization_transfer_owner_only' });
  });

  it("given an owner's only organization, when an operator deletes it, then accepted (neither owner nor last-organization rule binds an operator)", () => {
    const byOperator = ev('accounts.organization.deleted', { organization_id: O1, actor_id: '', by_operator: true });
    expect(decideOn(organizationLifecycle, owned({ ownedByActor: 1 }), byOperator).status).toBe('accepted');
  });

  it('given no such organization, when an operator deletes it, then organization_not_found naming the ref', () => {
    const byOperator = ev('accounts.organization.deleted', { organization_id: O1, actor_id: '', by_operator: true });
    expect(decideOn(organizationLifecycle, world(), byOperator)).toEqual({
      status: 'rejected', code: 'organization_not_found', message: `Organization not found: ${O1}.`, details: { ref: O1 },
    });
    expect(REJECTION_KINDS.organization_not_found).toBe('not_found');
  });
});
