// Roles of users in an organization (POST/DELETE /admin/simple/accounts/organizations/memberships/).
// Membership events are keyed by their organization, like its other events. A membership in the
// organization counts for its workspaces and projects too, so removal takes the user out of all
// three levels; the organization's owner keeps the owner role.
import type { AccountEvent } from '../account-event.ts';
import { aggregate } from '../aggregate.ts';
import { accepted, reject, type Decision } from '../decision.ts';
import { sameId } from './ids.ts';

export type MembershipEventType = 'accounts.membership.set' | 'accounts.membership.removed';
export type MembershipEvent = AccountEvent<MembershipEventType>;

export const MEMBERSHIP_ROLES = ['owner', 'admin', 'developer', 'editor', 'annotator', 'viewer'] as const;

export interface Member { organizationId: string; userId: string; role: string }

/** The organizations (with their owners), users and organization memberships an event's decision looks at. */
export interface MembershipState {
  organizations: Array<{ id: string; ownerId: string }>;
  users: Array<{ id: string }>;
  members: Member[];
}

export const MEMBERSHIP_REJECTIONS = {
  organization_not_found: 'not_found',
  user_not_found: 'not_found',
  owner_role_fixed: 'conflict',
  unknown_role: 'unprocessable',
} as const;
export type MembershipRejection = keyof typeof MEMBERSHIP_REJECTIONS;

const userNotFound = (): Decision<MembershipRejection> => reject('user_not_found', 'User not found');
const isRole = (role: string): boolean => (MEMBERSHIP_ROLES as readonly string[]).includes(role);
const sameMember = (m: Member, organizationId: string, userId: string): boolean => sameId(m.organizationId, organizationId) && sameId(m.userId, userId);

export const membership = aggregate({
  eventTypes: ['accounts.membership.set', 'accounts.membership.removed'],
  initial: { organizations: [], users: [], members: [] } as MembershipState,
  rejections: MEMBERSHIP_REJECTIONS,

  decide(e: MembershipEvent, s: MembershipState): Decision<MembershipRejection> {
    const p = e.payload;
    const org = s.organizations.find((o) => sameId(o.id, p.organization_id));
    if (!org) return reject('organization_not_found', 'Organization not found');
    if (!s.users.some((u) => sameId(u.id, p.user_id))) return userNotFound();
    if (sameId(org.ownerId, p.user_id)) return reject('owner_role_fixed', "The organization's owner keeps the owner role");
    if (e.type === 'accounts.membership.set' && !isRole(e.payload.role)) return reject('unknown_role', `Unknown role '${e.payload.role}'`);
    return accepted;
  },

  evolve(s: MembershipState, e: MembershipEvent): MembershipState {
    const p = e.payload;
    const others = s.members.filter((m) => !sameMember(m, p.organization_id, p.user_id));
    if (e.type === 'accounts.membership.removed') return { ...s, members: others };
    return { ...s, members: [...others, { organizationId: p.organization_id, userId: p.user_id, role: e.payload.role }] };
  },
});

// Rules of the membership commands that come before any event.

/** The user an operator names (by id or e-mail) must exist: an e-mail that names no one has no id to send. */
export function decideMemberRef<U>(user: U | undefined): Decision<MembershipRejection> {
  return user === undefined ? userNotFound() : accepted;
}
