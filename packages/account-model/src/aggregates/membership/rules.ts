// Roles of users in an organization, or in one of its workspaces or projects (the admin membership
// routes of compat §2.3). Membership events are keyed by their organization, like its other events.
// A role in the organization counts for its workspaces and projects too, so its removal takes the
// user out of all three levels; a workspace or project role is removed alone. The organization's
// owner keeps the owner role, and only a transfer makes someone else the owner.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';
import type { RejectionPresentations } from '../../presentation.ts';

export type MembershipEventType = 'accounts.membership.set' | 'accounts.membership.removed';
export type MembershipEvent = AccountEvent<MembershipEventType>;

export const MEMBERSHIP_ROLES = ['owner', 'admin', 'developer', 'editor', 'annotator', 'viewer'] as const;

export interface Member { organizationId: string; userId: string; role: string }

/** A workspace or project an event names, as it exists (with its organization). */
export interface MembershipTarget { kind: 'workspace' | 'project'; id: string; organizationId: string }

/** The organizations (with their owners), users and organization memberships an event's decision looks at. */
export interface MembershipState {
  organizations: Array<{ id: string; ownerId: string }>;
  users: Array<{ id: string }>;
  members: Member[];
  /** The workspace or project a scoped event names, when it exists. */
  targets?: MembershipTarget[];
}

export const MEMBERSHIP_REJECTIONS = {
  organization_not_found: 'not_found',
  user_not_found: 'not_found',
  owner_role_fixed: 'conflict',
  /** Removing the owner from the organization (the reference's 403 with a nested message). */
  owner_not_removable: { kind: 'forbidden', body: 'nested' },
  owner_role_by_transfer: 'invalid',
  unknown_role: 'unprocessable',
  membership_scope_not_found: 'not_found',
} as const satisfies RejectionPresentations<string>;
export type MembershipRejection = keyof typeof MEMBERSHIP_REJECTIONS;

const userNotFound = (): Decision<MembershipRejection> => reject('user_not_found', 'User not found');
const isRole = (role: string): boolean => (MEMBERSHIP_ROLES as readonly string[]).includes(role);

/** The workspace or project an event's role is held in; undefined for the organization itself. */
export function membershipScopeOf(p: { scope?: string | undefined; scope_id?: string | undefined }): { kind: 'workspace' | 'project'; id: string } | undefined {
  return (p.scope === 'workspace' || p.scope === 'project') && p.scope_id ? { kind: p.scope, id: p.scope_id } : undefined;
}

export const OWNER_NOT_REMOVABLE = "The organization's owner cannot be removed from the workspace.";

export const membershipRules = rules({
  eventTypes: ['accounts.membership.set', 'accounts.membership.removed'],
  rejections: MEMBERSHIP_REJECTIONS,

  decide(e: MembershipEvent, s: MembershipState): Decision<MembershipRejection> {
    const p = e.payload;
    const org = s.organizations.find((o) => sameId(o.id, p.organization_id));
    if (!org) return reject('organization_not_found', 'Organization not found');
    if (!s.users.some((u) => sameId(u.id, p.user_id))) return userNotFound();
    const scope = membershipScopeOf(p);
    if (scope && !(s.targets ?? []).some((t) => t.kind === scope.kind && sameId(t.id, scope.id) && sameId(t.organizationId, org.id))) {
      const kind = scope.kind === 'workspace' ? 'Workspace' : 'Project';
      return reject('membership_scope_not_found', `${kind} not found: ${scope.id}.`, { ref: scope.id });
    }
    if (sameId(org.ownerId, p.user_id)) {
      return e.type === 'accounts.membership.removed' ? reject('owner_not_removable', OWNER_NOT_REMOVABLE) : reject('owner_role_fixed', "The organization's owner keeps the owner role");
    }
    if (e.type === 'accounts.membership.set') {
      if (!isRole(e.payload.role)) return reject('unknown_role', `Unknown role '${e.payload.role}'`);
      // Ownership of an organization changes hands through a transfer, which also swaps the roles.
      if (!scope && e.payload.role === 'owner') return reject('owner_role_by_transfer', "An organization's owner is changed by transferring ownership, not by a membership");
    }
    return accepted;
  },
});
