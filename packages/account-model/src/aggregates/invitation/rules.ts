// Invitations to an organization's workspace (compat §3.1: invite, resend, accept, and removal of a
// pending invitation). Every invitation event is keyed by its organization, like the membership
// events: an acceptance (which grants the organization membership itself, in the same event, so a
// replay can never see one without the other) is ordered with the removals of the same organization.
// Only SHA-256 hashes of tokens are ever in an event or the state; the raw token is answered once.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';
import type { RejectionPresentations } from '../../presentation.ts';

export type InvitationEventType = 'accounts.invitation.created' | 'accounts.invitation.resent' | 'accounts.invitation.accepted' | 'accounts.invitation.revoked';
export type InvitationEvent = AccountEvent<InvitationEventType>;

/**
 * The roles an invitation may grant. `owner` is not one of them: an organization has one owner and
 * it changes hands only by a transfer (the membership aggregate refuses it too).
 */
export const INVITATION_ROLES = ['admin', 'developer', 'editor', 'annotator', 'viewer'] as const;
export const DEFAULT_INVITATION_ROLE = 'viewer';

export interface InvitationRef {
  id: string; organizationId: string; email: string; role: string; tokenHash: string; expiresAtUs: number; accepted: boolean;
}

/** What an invitation event is decided on (the loader fills only what the event names). */
export interface InvitationState {
  organizations: Array<{ id: string }>;
  workspaces: Array<{ id: string; organizationId: string }>;
  /** The accepting user, with their e-mail. */
  users: Array<{ id: string; email: string }>;
  /** Lowercase e-mails of users holding a role anywhere in the organization (among those the event names). */
  memberEmails: Array<{ organizationId: string; email: string }>;
  invitations: InvitationRef[];
}

export const INVITATION_REJECTIONS = {
  invitation_organization_not_found: 'not_found',
  invitation_workspace_not_found: 'not_found',
  invitation_member_exists: 'invalid',
  invitation_role_invalid: 'invalid',
  invitation_exists: 'conflict',
  // Checked by the command before any event (one invitee per request, not oneself, someone to remove).
  invitation_one_user: 'invalid',
  invitation_self: 'invalid',
  workspace_user_not_found: 'not_found',
  /** A resend finds no pending invitation for the e-mail. */
  invitation_not_pending: 'not_found',
  // An acceptance: the reference's bodies (400 with the code, 409, 410).
  invitation_not_found: { kind: 'invalid', body: 'error_and_message' },
  invitation_wrong_user: { kind: 'invalid', body: 'error_and_message' },
  invitation_accepted: 'conflict',
  invitation_expired: 'gone',
} as const satisfies RejectionPresentations<string>;
export type InvitationRejection = keyof typeof INVITATION_REJECTIONS;

export const WORKSPACE_NOT_FOUND = 'Workspace not found for organization.';
export const ALREADY_MEMBER = 'User is already a member of the workspace';
export const INVITATION_NOT_FOUND = 'Invitation does not exist.';
export const NOT_PENDING = 'No pending invitation for this e-mail.';
export const INVITATION_WRONG_USER = 'Invitation is addressed to a different user.';
export const INVITATION_EXPIRED = 'Invitation has expired.';
export const INVITATION_ACCEPTED = 'Invitation has already been accepted.';
export const invalidRoleMessage = (role: string): string => `Workspace role '${role}' is invalid.`;

export const isInvitationRole = (role: string): boolean => (INVITATION_ROLES as readonly string[]).includes(role);
export const normalEmail = (email: string): string => email.trim().toLowerCase();

const byId = (s: InvitationState, organizationId: string, id: string): InvitationRef | undefined =>
  s.invitations.find((i) => sameId(i.id, id) && sameId(i.organizationId, organizationId));
const pendingFor = (s: InvitationState, organizationId: string, email: string): InvitationRef | undefined =>
  s.invitations.find((i) => !i.accepted && sameId(i.organizationId, organizationId) && i.email === normalEmail(email));
const notFound = (): Decision<InvitationRejection> => reject('invitation_not_found', INVITATION_NOT_FOUND);

export const invitationRules = rules({
  eventTypes: ['accounts.invitation.created', 'accounts.invitation.resent', 'accounts.invitation.accepted', 'accounts.invitation.revoked'],
  rejections: INVITATION_REJECTIONS,

  decide(e: InvitationEvent, s: InvitationState): Decision<InvitationRejection> {
    const orgId = e.payload.organization_id;
    if (!s.organizations.some((o) => sameId(o.id, orgId))) return reject('invitation_organization_not_found', 'Organization not found');
    switch (e.type) {
      case 'accounts.invitation.created': {
        const p = e.payload;
        if (!s.workspaces.some((w) => sameId(w.id, p.workspace_id) && sameId(w.organizationId, orgId))) {
          return reject('invitation_workspace_not_found', WORKSPACE_NOT_FOUND);
        }
        if (s.memberEmails.some((m) => sameId(m.organizationId, orgId) && m.email === normalEmail(p.email)) || pendingFor(s, orgId, p.email)) {
          return reject('invitation_member_exists', ALREADY_MEMBER);
        }
        if (!isInvitationRole(p.role)) return reject('invitation_role_invalid', invalidRoleMessage(p.role));
        if (s.invitations.some((i) => sameId(i.id, p.invitation_id))) return reject('invitation_exists', 'Invitation already exists');
        return accepted;
      }
      case 'accounts.invitation.resent': {
        const inv = byId(s, orgId, e.payload.invitation_id);
        if (!inv) return reject('invitation_not_pending', NOT_PENDING);
        return inv.accepted ? reject('invitation_accepted', INVITATION_ACCEPTED) : accepted;
      }
      case 'accounts.invitation.accepted': {
        const p = e.payload;
        const inv = byId(s, orgId, p.invitation_id);
        // A token replaced by a resend no longer names the invitation.
        if (!inv || inv.tokenHash !== p.token_hash) return notFound();
        const user = s.users.find((u) => sameId(u.id, p.user_id));
        if (!user || normalEmail(user.email) !== inv.email) return reject('invitation_wrong_user', INVITATION_WRONG_USER);
        if (inv.accepted) return reject('invitation_accepted', INVITATION_ACCEPTED);
        if (e.timeUs > inv.expiresAtUs) return reject('invitation_expired', INVITATION_EXPIRED);
        return accepted;
      }
      case 'accounts.invitation.revoked':
        return accepted;
    }
  },
});
