// Given/when/then of the invitation aggregate: one pending invitation per e-mail and organization,
// into a workspace of that organization, with a role an invitation may grant; a resend replaces the
// token; an acceptance needs the current token, the addressee, a live and unused invitation; a
// revocation ends the pending invitations of an e-mail.
import { describe, expect, it } from 'vitest';
import { invitation, type AccountEvent, type InvitationRef, type InvitationState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

const O1 = '00000000-0000-4000-8000-0000000000a1';
const O2 = '00000000-0000-4000-8000-0000000000a2';
const W1 = '00000000-0000-4000-8000-0000000000b1';
const W2 = '00000000-0000-4000-8000-0000000000b2';
const I1 = '00000000-0000-4000-8000-0000000000c1';
const I2 = '00000000-0000-4000-8000-0000000000c2';
const U1 = '00000000-0000-4000-8000-0000000000d1';
const U2 = '00000000-0000-4000-8000-0000000000d2';
const T0 = 1_700_000_000_000_000;
const DAY_US = 86_400_000_000;
const world: InvitationState = {
  organizations: [{ id: O1 }, { id: O2 }],
  workspaces: [{ id: W1, organizationId: O1 }, { id: W2, organizationId: O2 }],
  users: [{ id: U1, email: 'Ann@Example.com' }, { id: U2, email: 'bob@example.com' }],
  memberEmails: [{ organizationId: O1, email: 'member@example.com' }],
  invitations: [],
};

type Created = AccountEvent<'accounts.invitation.created'>['payload'];
const created = (o: Partial<Created> = {}) => ev('accounts.invitation.created', {
  invitation_id: I1, organization_id: O1, workspace_id: W1, project_id: '', email: 'ann@example.com', role: 'viewer',
  token_hash: 'h1', expires_at_us: T0 + 7 * DAY_US, inviter_id: U2, ...o,
});
const resent = (hash = 'h2', id = I1, org = O1) => ev('accounts.invitation.resent', { invitation_id: id, organization_id: org, token_hash: hash, expires_at_us: T0 + 14 * DAY_US });
const acceptedBy = (user = U1, hash = 'h1', timeUs = T0 + DAY_US, id = I1) =>
  ev('accounts.invitation.accepted', { invitation_id: id, organization_id: O1, user_id: user, token_hash: hash }, { timeUs });
const revoked = (email = 'ann@example.com', org = O1) => ev('accounts.invitation.revoked', { organization_id: org, email });

/** Invitation I1 of ann@example.com to O1 as viewer, with token hash h1, for 7 days, pending. */
const ann = (o: Partial<InvitationRef> = {}): InvitationRef => ({
  id: I1, organizationId: O1, email: 'ann@example.com', role: 'viewer', tokenHash: 'h1', expiresAtUs: T0 + 7 * DAY_US, accepted: false, ...o,
});
const withInvitations = (...invitations: InvitationRef[]): InvitationState => ({ ...world, invitations });
/** Ann's invitation resent: token hash h2, 14 days. */
const resentAnn = withInvitations(ann({ tokenHash: 'h2', expiresAtUs: T0 + 14 * DAY_US }));
/** Ann accepted: her invitation is accepted and her e-mail counts as a member of O1. */
const acceptedAnn: InvitationState = { ...withInvitations(ann({ accepted: true })), memberEmails: [...world.memberEmails, { organizationId: O1, email: 'ann@example.com' }] };
const zed = ann({ id: I2, email: 'zed@example.com' });

describe('invitation aggregate', () => {
  it('given a workspace of the organization, when an e-mail is invited, then it is accepted', () => {
    expect(decideOn(invitation, world, created({ email: 'ANN@example.com', role: 'editor' })).status).toBe('accepted');
  });

  it('when the organization or the workspace (of another organization) is unknown, then not found', () => {
    expect(decideOn(invitation, world, created({ organization_id: '00000000-0000-4000-8000-0000000000ff' }))).toMatchObject({ code: 'invitation_organization_not_found' });
    expect(decideOn(invitation, world, created({ workspace_id: W2 }))).toMatchObject({ code: 'invitation_workspace_not_found', message: 'Workspace not found for organization.' });
  });

  it('given a member or a pending invitation of the e-mail, when it is invited, then invitation_member_exists; a bad role or a reused id are refused', () => {
    expect(decideOn(invitation, world, created({ email: 'Member@example.com' }))).toMatchObject({ code: 'invitation_member_exists', message: 'User is already a member of the workspace' });
    expect(decideOn(invitation, withInvitations(ann()), created({ invitation_id: I2, email: 'Ann@Example.com' }))).toMatchObject({ code: 'invitation_member_exists' });
    expect(decideOn(invitation, acceptedAnn, created({ invitation_id: I2 }))).toMatchObject({ code: 'invitation_member_exists' });
    expect(decideOn(invitation, world, created({ role: 'owner' }))).toMatchObject({ code: 'invitation_role_invalid', message: "Workspace role 'owner' is invalid." });
    expect(decideOn(invitation, withInvitations(ann()), created({ email: 'other@example.com' }))).toMatchObject({ code: 'invitation_exists' });
  });

  it('given the same e-mail invited in another organization, when invited here, then it is accepted', () => {
    expect(decideOn(invitation, withInvitations(ann()), created({ invitation_id: I2, organization_id: O2, workspace_id: W2 })).status).toBe('accepted');
  });

  it('given a pending invitation, when it is resent, then it is accepted; an unknown or accepted invitation is refused', () => {
    expect(decideOn(invitation, withInvitations(ann()), resent()).status).toBe('accepted');
    expect(decideOn(invitation, world, resent())).toMatchObject({ code: 'invitation_not_pending' });
    expect(decideOn(invitation, withInvitations(ann()), resent('h2', I1, O2))).toMatchObject({ code: 'invitation_not_pending' });
    expect(decideOn(invitation, acceptedAnn, resent())).toMatchObject({ code: 'invitation_accepted' });
  });

  it('given a pending invitation, when its addressee accepts with the token in time, then it is accepted', () => {
    expect(decideOn(invitation, withInvitations(ann()), acceptedBy()).status).toBe('accepted');
  });

  it('when the token was replaced, the user is someone else, it was accepted already, or it expired, then the typed refusal', () => {
    expect(decideOn(invitation, resentAnn, acceptedBy(U1, 'h1'))).toMatchObject({ code: 'invitation_not_found', message: 'Invitation does not exist.' });
    expect(decideOn(invitation, resentAnn, acceptedBy(U1, 'h2')).status).toBe('accepted');
    expect(decideOn(invitation, withInvitations(ann()), acceptedBy(U2))).toMatchObject({ code: 'invitation_wrong_user', message: 'Invitation is addressed to a different user.' });
    expect(decideOn(invitation, acceptedAnn, acceptedBy())).toMatchObject({ code: 'invitation_accepted', message: 'Invitation has already been accepted.' });
    expect(decideOn(invitation, withInvitations(ann()), acceptedBy(U1, 'h1', T0 + 8 * DAY_US))).toMatchObject({ code: 'invitation_expired', message: 'Invitation has expired.' });
  });

  it('given pending invitations, when an e-mail is revoked, then it is accepted; with only another e-mail pending, it can be invited again', () => {
    expect(decideOn(invitation, withInvitations(ann(), zed), revoked('Ann@example.com')).status).toBe('accepted');
    expect(decideOn(invitation, withInvitations(zed), created({ invitation_id: '00000000-0000-4000-8000-0000000000c3' })).status).toBe('accepted');
    expect(decideOn(invitation, world, revoked('x@example.com', '00000000-0000-4000-8000-0000000000ff'))).toMatchObject({ code: 'invitation_organization_not_found' });
  });
});
