// The invitation projection's SQL against the real Postgres: each event's outcome is what the
// aggregate decides on the state the loader returns, and the state it returns after each event is
// written out (token hash, expiry, accepted); an invitation row keeps only the token's hash;
// an acceptance writes the organization membership with the invited role in the same fact; a
// revocation removes the pending invitation; the organization takes its invitations with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { type AccountEvent, invitationByTokenHash, type InvitationRef, type InvitationState, isMemberByEmail, mayManageWorkspaceMembers, pendingInvitation } from '@llm/account-model';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const DAY_US = 86_400_000_000;

describe('invitation projection (Postgres)', () => {
  it('given an organization, when an e-mail is invited, resent, accepted by its addressee and another revoked, then rows and memberships follow the aggregate', async () => {
    const hex = randomBytes(4).toString('hex');
    const [owner, ann, bob, org, ws, prj] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const account = (user: string, id: string, w = randomUUID(), p = randomUUID()) => ev('accounts.account.provisioned', {
      user: { id: user, email: `${user.slice(0, 8)}-${hex}@x.org`, name: '', username: hex }, organization: { id, name: 'O', slug: `o-${id}` },
      workspace: { id: w, name: 'W', slug: 'w' }, project: { id: p, name: 'P', slug: 'p' }, api_key: null,
    });
    expect(await db.apply(account(owner, org, ws, prj), account(ann, randomUUID()), account(bob, randomUUID()))).toEqual([{ status: 'applied' }, { status: 'applied' }, { status: 'applied' }]);
    const annEmail = `${ann.slice(0, 8)}-${hex}@x.org`;
    const now = Date.now() * 1000; // whole milliseconds: what a timestamptz keeps
    const [i1, i2] = [randomUUID(), randomUUID()];
    const created = (id: string, email: string, hash: string) => ev('accounts.invitation.created', {
      invitation_id: id, organization_id: org, workspace_id: ws, project_id: prj, email, role: 'editor', token_hash: hash, expires_at_us: now + 7 * DAY_US, inviter_id: owner,
    });
    const accepted = (user: string, hash: string) => ev('accounts.invitation.accepted', { invitation_id: i1, organization_id: org, user_id: user, token_hash: hash });
    const ownerEmail = `${owner.slice(0, 8)}-${hex}@x.org`;
    const organizations = [{ id: org }];
    const workspaces = [{ id: ws, organizationId: org }];
    const inv = (id: string, email: string, tokenHash: string, expiresAtUs: number): InvitationRef =>
      ({ id, organizationId: org, email, role: 'editor', tokenHash, expiresAtUs, accepted: false });
    const ann1 = inv(i1, annEmail, 'h1', now + 7 * DAY_US);     // as invited: the e-mail lowercased
    const ann2 = inv(i1, annEmail, 'h2', now + 8 * DAY_US);     // as resent: a new token and expiry
    const none = { organizations, workspaces: [], users: [], memberEmails: [], invitations: [] };
    // Each event, its verdict, and the state the loader returns for it afterwards: a creation sees its
    // workspace, whether the e-mail is a member's and the invitations it collides with; a resend or an
    // acceptance the invitation (and the accepting user); a revocation the e-mail's pending invitations.
    const steps: Array<[AccountEvent, string, InvitationState]> = [
      [created(i1, annEmail.toUpperCase(), 'h1'), 'ok', { ...none, workspaces, invitations: [ann1] }],
      [created(randomUUID(), annEmail, 'hx'), 'invitation_member_exists', { ...none, workspaces, invitations: [ann1] }],  // already invited
      [created(randomUUID(), ownerEmail, 'hy'), 'invitation_member_exists', { ...none, workspaces, memberEmails: [{ organizationId: org, email: ownerEmail }] }], // the owner
      [ev('accounts.invitation.resent', { invitation_id: i1, organization_id: org, token_hash: 'h2', expires_at_us: now + 8 * DAY_US }), 'ok', { ...none, invitations: [ann2] }],
      [accepted(ann, 'h1'), 'invitation_not_found', { ...none, users: [{ id: ann, email: annEmail }], invitations: [ann2] }],   // the token was replaced
      [accepted(bob, 'h2'), 'invitation_wrong_user', { ...none, users: [{ id: bob, email: `${bob.slice(0, 8)}-${hex}@x.org` }], invitations: [ann2] }],
      [accepted(ann, 'h2'), 'ok', { ...none, users: [{ id: ann, email: annEmail }], invitations: [{ ...ann2, accepted: true }] }],
      [accepted(ann, 'h2'), 'invitation_accepted', { ...none, users: [{ id: ann, email: annEmail }], invitations: [{ ...ann2, accepted: true }] }],
      [created(i2, 'zed@x.org', 'h3'), 'ok', { ...none, workspaces, invitations: [inv(i2, 'zed@x.org', 'h3', now + 7 * DAY_US)] }],
      [ev('accounts.invitation.revoked', { organization_id: org, email: 'ZED@x.org' }), 'ok', none],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) expect(await db.step('invitation', e), `step ${i}`).toEqual({ verdict, after });

    // Ann's invitation: lowercase e-mail, the last token's hash, accepted by her; Ann is an editor of the organization.
    const row = await invitationByTokenHash(db.pool, 'h2');
    expect(row).toMatchObject({ id: i1, organization_id: org, workspace_id: ws, project_id: prj, email: annEmail, role: 'editor', accepted_at: expect.any(Date) });
    expect(await invitationByTokenHash(db.pool, 'h1')).toBeUndefined();
    const roles = await db.pool.query('SELECT scope, role FROM memberships WHERE user_id = $1 AND scope_id = $2', [ann, org]);
    expect(roles.rows).toEqual([{ scope: 'organization', role: 'editor' }]);
    expect(await isMemberByEmail(db.pool, org, annEmail.toUpperCase())).toBe(true);
    expect(await pendingInvitation(db.pool, org, 'zed@x.org')).toBeUndefined();
    // An editor may not manage members; the owner may; Bob (no role) may not.
    expect(await mayManageWorkspaceMembers(db.pool, org, ws, ann)).toBe(false);
    expect(await mayManageWorkspaceMembers(db.pool, org, ws, owner)).toBe(true);
    expect(await mayManageWorkspaceMembers(db.pool, org, ws, bob)).toBe(false);

    // A pending invitation goes with its organization.
    expect(await db.apply(created(randomUUID(), 'pending@x.org', 'h4'))).toEqual([{ status: 'applied' }]);
    await db.pool.query('DELETE FROM organizations WHERE id = $1', [org]);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM invitations WHERE organization_id = $1', [org])).rows[0].n).toBe(0);
  });
});
