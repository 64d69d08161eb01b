// An organization's life (compat §3.1): created by a user (its owner), handed over to another
// member, deleted by its owner. Keyed `organization:<id>` like the organization's other events, so
// an update, a provider change and a delete of one organization are decided in one order.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';

export type OrganizationLifecycleEventType = 'accounts.organization.created' | 'accounts.organization.deleted' | 'accounts.organization.transferred';
export type OrganizationLifecycleEvent = AccountEvent<OrganizationLifecycleEventType>;

/**
 * What a lifecycle event is decided on: the organization (if it exists) with its owner, whether the
 * slug asked for is taken, which of the users the event names exist, how many organizations the
 * acting owner owns, and the organization's members among the users the event names.
 */
export interface OrganizationLifecycleState {
  organization?: { id: string; ownerId: string };
  slugTaken: boolean;
  users: string[];
  ownedByActor: number;
  members: Array<{ userId: string; role: string }>;
}

export const emptyOrganizationLifecycle = (): OrganizationLifecycleState => ({ slugTaken: false, users: [], ownedByActor: 0, members: [] });

export const ORGANIZATION_LIFECYCLE_REJECTIONS = {
  organization_exists: 'conflict',
  organization_not_found: 'not_found',
  organization_slug_taken: 'conflict',
  organization_owner_not_found: 'not_found',
  organization_owner_only: 'forbidden',
  organization_transfer_owner_only: 'forbidden',
  organization_last: 'invalid',
  organization_transfer_invalid: 'invalid',
} as const;
export type OrganizationLifecycleRejection = keyof typeof ORGANIZATION_LIFECYCLE_REJECTIONS;

// The reference's wording (compat §3.1): clients show these texts.
export const NOT_PERMITTED = 'You do not have permission to perform this action';
export const LAST_ORGANIZATION = 'Cannot delete your last organization. You must have at least one organization.';
export const TRANSFER_OWNER_ONLY = 'Only the organization owner can transfer ownership';
export const TRANSFER_INVALID = 'Invalid organization or new owner for ownership transfer';

export const organizationLifecycleRules = rules({
  eventTypes: ['accounts.organization.created', 'accounts.organization.deleted', 'accounts.organization.transferred'],
  rejections: ORGANIZATION_LIFECYCLE_REJECTIONS,

  decide(e: OrganizationLifecycleEvent, s: OrganizationLifecycleState): Decision<OrganizationLifecycleRejection> {
    switch (e.type) {
      case 'accounts.organization.created': {
        const p = e.payload;
        if (s.organization) return reject('organization_exists', `Organization '${p.organization.id}' already exists.`);
        if (s.slugTaken) return reject('organization_slug_taken', `Organization slug '${p.organization.slug}' already exists.`, { slug: p.organization.slug });
        if (!s.users.some((u) => sameId(u, p.owner_id))) return reject('organization_owner_not_found', 'User not found');
        return accepted;
      }
      case 'accounts.organization.deleted': {
        // An operator (admin routes) may delete any organization, even a user's last one.
        if (e.payload.by_operator) return s.organization ? accepted : reject('organization_not_found', `Organization not found: ${e.payload.organization_id}.`, { ref: e.payload.organization_id });
        // An unknown organization answers like someone else's: nobody learns which ids exist.
        if (!s.organization || !sameId(s.organization.ownerId, e.payload.actor_id)) return reject('organization_owner_only', NOT_PERMITTED);
        if (s.ownedByActor <= 1) return reject('organization_last', LAST_ORGANIZATION);
        return accepted;
      }
      case 'accounts.organization.transferred': {
        const p = e.payload;
        if (!s.organization || !sameId(s.organization.ownerId, p.from_user_id)) return reject('organization_transfer_owner_only', TRANSFER_OWNER_ONLY);
        if (!s.members.some((m) => sameId(m.userId, p.to_user_id))) return reject('organization_transfer_invalid', TRANSFER_INVALID);
        return accepted;
      }
    }
  },
});
