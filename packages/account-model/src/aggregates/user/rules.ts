// Users (reference accounts §13, sign-in of §3.4). Every event of a user is keyed by its lowercased
// e-mail (`user:<email>`), so of two accounts or first sign-ins asking for one address the later is
// refused. Provisioning also creates the user's organization: its slug is checked here, and deleting
// the user deletes the organizations they own.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';

export type UserEventType = 'accounts.account.provisioned' | 'accounts.user.created' | 'accounts.user.deleted' | 'accounts.identity.signed_in';
export type UserEvent = AccountEvent<UserEventType>;

export interface UserRef { id: string; email: string }
export interface OrganizationRef { id: string; slug: string; ownerId: string }

/** The users an event's decision looks at (by id and by e-mail) and the organizations it touches (by slug, or owned by its user). */
export interface UserState { users: UserRef[]; organizations: OrganizationRef[] }

export const USER_REJECTIONS = {
  user_exists: 'conflict',
  user_not_found: 'not_found',
  organization_slug_exists: 'conflict',
  sso_domain_not_owned: 'forbidden',
} as const;
export type UserRejection = keyof typeof USER_REJECTIONS;

/** E-mails are unique without regard to case (the users table's unique index is on lower(email)). */
export const sameEmail = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

const byEmail = (s: UserState, email: string): UserRef | undefined => (email === '' ? undefined : s.users.find((u) => sameEmail(u.email, email)));
const byId = (s: UserState, id: string): UserRef | undefined => s.users.find((u) => sameId(u.id, id));
const userExists = (email: string): Decision<UserRejection> => reject('user_exists', `User with email '${email}' already exists.`, { email });

export const userRules = rules({
  eventTypes: ['accounts.account.provisioned', 'accounts.user.created', 'accounts.user.deleted', 'accounts.identity.signed_in'],
  rejections: USER_REJECTIONS,

  decide(e: UserEvent, s: UserState): Decision<UserRejection> {
    switch (e.type) {
      case 'accounts.account.provisioned': {
        const p = e.payload;
        if (byId(s, p.user.id) || byEmail(s, p.user.email)) return userExists(p.user.email);
        if (s.organizations.some((o) => o.slug === p.organization.slug)) {
          return reject('organization_slug_exists', `Organization slug '${p.organization.slug}' already exists.`, { slug: p.organization.slug });
        }
        return accepted;
      }
      case 'accounts.user.created': {
        const u = e.payload.user;
        return byId(s, u.id) || byEmail(s, u.email) ? userExists(u.email) : accepted;
      }
      case 'accounts.user.deleted':
        // Deleting a user who is already gone changes nothing: it is still a fact.
        return accepted;
      case 'accounts.identity.signed_in': {
        const p = e.payload;
        const owner = byEmail(s, p.email);
        // A first sign-in creates the user; the command links instead when someone holds the e-mail.
        if (p.create_user) return byId(s, p.user_id) || owner ? userExists(p.email) : accepted;
        if (!byId(s, p.user_id)) return reject('user_not_found', 'User not found');
        if (owner && !sameId(owner.id, p.user_id)) return userExists(p.email);
        return accepted;
      }
    }
  },
});

// Rules of sign-in that come before any event.

export interface SsoSignIn {
  /** The e-mail's domain (lowercased). */
  domain: string;
  /** The organization whose provider signs the user in. */
  organizationId: string;
  /** The organization that has the domain verified, if any. */
  domainOwner: string | undefined;
  /** The provider's subject is already linked to a user. */
  linked: boolean;
  /** A user holds the e-mail (looked up only when the subject is not linked). */
  emailTaken: boolean;
}

/**
 * An organization's identity provider vouches for its own people only: it may bring in an existing
 * account, or a new one, only for an e-mail domain that no other organization has verified, and an
 * existing account only when this organization verified the domain. Otherwise any organization could
 * configure a provider that "verifies" someone else's address. A linked subject stays with its user.
 */
export function decideSsoSignIn(x: SsoSignIn): Decision<UserRejection> {
  if (x.linked) return accepted;
  const own = x.domainOwner === x.organizationId;
  if ((x.domainOwner !== undefined && !own) || (x.emailTaken && !own)) {
    return reject('sso_domain_not_owned', `This identity provider cannot sign in users of ${x.domain}.`);
  }
  return accepted;
}

export { sameId } from '../ids.ts';

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** A user account: the lowercased e-mail (uniqueness is decided on one partition). */
export const userKey = (email: string): string => `user:${email.toLowerCase()}`;
