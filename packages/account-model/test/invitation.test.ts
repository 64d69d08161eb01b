// Given/when/then of the invitation aggregate: one pending invitation per e-mail and organization,
// into a workspace of that organization, with a role an invitation may grant; a resend replaces the
// token; an acceptance needs the current token, the addressee, a live and unused invitation; a
// revocation ends the pending invitations of an e-mail.
import { describe, expect, it } from 'vitest';
import { invitation, type InvitationState } from '../src/aggregates/invitation.ts';
import type { AccountEvent } from '../src/account-event.ts';
import { ev, given } from './support/given.ts';

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

describe('invitation aggregate', () => {
  it('given a workspace of the organization, when an e-mail is invited, then one pending invitation holds its lowercase e-mail, role and token hash', () => {
    const t = given(invitation, [], world).when(created({ email: 'ANN@example.com', role: 'editor' }));
    expect(t.decision.status).toBe('accepted');
    expect(t.state.invitations).toEqual([{ id: I1, organizationId: O1, email: 'ann@example.com', role: 'editor', tokenHash: 'h1', expiresAtUs: T0 + 7 * DAY_US, accepted: false }]);
  });

  it('when the organization or the workspace (of another organization) is unknown, then not found', () => {
    expect(given(invitation, [], world).when(created({ organization_id: '00000000-0000-4000-8000-0000000000ff' })).decision).toMatchObject({ code: 'invitation_organization_not_found' });
    expect(given(invitation, [], world).when(created({ workspace_id: W2 })).decision).toMatchObject({ code: 'invitation_workspace_not_found', message: 'Workspace not found for organization.' });
  });

  it('given a member or a pending invitation of the e-mail, when it is invited, then invitation_member_exists; a bad role or a reused id are refused', () => {
    expect(given(invitation, [], world).when(created({ email: 'Member@example.com' })).decision).toMatchObject({ code: 'invitation_member_exists', message: 'User is already a member of the workspace' });
    expect(given(invitation, [created()], world).when(created({ invitation_id: I2, email: 'Ann@Example.com' })).decision).toMatchObject({ code: 'invitation_member_exists' });
    expect(given(invitation, [], world).when(created({ role: 'owner' })).decision).toMatchObject({ code: 'invitation_role_invalid', message: "Workspace role 'owner' is invalid." });
    expect(given(invitation, [created()], world).when(created({ email: 'other@example.com' })).decision).toMatchObject({ code: 'invitation_exists' });
  });

  it('given the same e-mail invited in another organization, when invited here, then it is accepted', () => {
    expect(given(invitation, [created()], world).when(created({ invitation_id: I2, organization_id: O2, workspace_id: W2 })).decision.status).toBe('accepted');
  });

  it('given a pending invitation, when it is resent, then the token and expiry are new; an unknown or accepted invitation is refused', () => {
    const t = given(invitation, [created()], world).when(resent());
    expect(t.decision.status).toBe('accepted');
    expect(t.state.invitations[0]).toMatchObject({ tokenHash: 'h2', expiresAtUs: T0 + 14 * DAY_US });
    expect(given(invitation, [], world).when(resent()).decision).toMatchObject({ code: 'invitation_not_found' });
    expect(given(invitation, [created()], world).when(resent('h2', I1, O2)).decision).toMatchObject({ code: 'invitation_not_found' });
    expect(given(invitation, [created(), acceptedBy()], world).when(resent()).decision).toMatchObject({ code: 'invitation_accepted' });
  });

  it('given a pending invitation, when its addressee accepts with the token in time, then it is accepted and the e-mail counts as a member', () => {
    const t = given(invitation, [created()], world).when(acceptedBy());
    expect(t.decision.status).toBe('accepted');
    expect(t.state.invitations[0]!.accepted).toBe(true);
    expect(t.state.memberEmails).toContainEqual({ organizationId: O1, email: 'ann@example.com' });
    expect(t.state.memberEmails.length).toBe(2);
  });

  it('when the token was replaced, the user is someone else, it was accepted already, or it expired, then the typed refusal', () => {
    expect(given(invitation, [created(), resent()], world).when(acceptedBy(U1, 'h1')).decision).toMatchObject({ code: 'invitation_not_found', message: 'Invitation does not exist.' });
    expect(given(invitation, [created(), resent()], world).when(acceptedBy(U1, 'h2')).decision.status).toBe('accepted');
    expect(given(invitation, [created()], world).when(acceptedBy(U2)).decision).toMatchObject({ code: 'invitation_wrong_user', message: 'Invitation is addressed to a different user.' });
    expect(given(invitation, [created(), acceptedBy()], world).when(acceptedBy()).decision).toMatchObject({ code: 'invitation_accepted', message: 'Invitation has already been accepted.' });
    expect(given(invitation, [created()], world).when(acceptedBy(U1, 'h1', T0 + 8 * DAY_US)).decision).toMatchObject({ code: 'invitation_expired', message: 'Invitation has expired.' });
  });

  it('given pending invitations, when an e-mail is revoked, then its pending invitation in that organization is gone and it can be invited again', () => {
    const h = given(invitation, [created(), created({ invitation_id: I2, email: 'zed@example.com' }), revoked('Ann@example.com')], world);
    expect(h.state.invitations.map((i) => i.email)).toEqual(['zed@example.com']);
    expect(h.when(created({ invitation_id: '00000000-0000-4000-8000-0000000000c3' })).decision.status).toBe('accepted');
    expect(given(invitation, [], world).when(revoked('x@example.com', '00000000-0000-4000-8000-0000000000ff')).decision).toMatchObject({ code: 'invitation_organization_not_found' });
  });
});
