// The invitation projection's SQL against the real Postgres: each event's outcome is what the
// aggregate decides on the state the reader loads; an invitation row keeps only the token's hash;
// an acceptance writes the organization membership with the invited role in the same fact; a
// revocation removes the pending invitation; the organization takes its invitations with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { invitation, type AccountEvent } from '@llm/account-model';
import { invitationByTokenHash, isMemberByEmail, loadInvitationState, mayManageWorkspaceMembers, pendingInvitation } from '@llm/accounts-read';
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
    const now = Date.now() * 1000;
    const [i1, i2] = [randomUUID(), randomUUID()];
    const created = (id: string, email: string, hash: string) => ev('accounts.invitation.created', {
      invitation_id: id, organization_id: org, workspace_id: ws, project_id: prj, email, role: 'editor', token_hash: hash, expires_at_us: now + 7 * DAY_US, inviter_id: owner,
    });
    const accepted = (user: string, hash: string) => ev('accounts.invitation.accepted', { invitation_id: i1, organization_id: org, user_id: user, token_hash: hash });
    const history: AccountEvent[] = [
      created(i1, annEmail.toUpperCase(), 'h1'),
      created(randomUUID(), annEmail, 'hx'),                   // rejected: already invited
      created(randomUUID(), `${owner.slice(0, 8)}-${hex}@x.org`, 'hy'), // rejected: already a member (the owner)
      ev('accounts.invitation.resent', { invitation_id: i1, organization_id: org, token_hash: 'h2', expires_at_us: now + 8 * DAY_US }),
      accepted(ann, 'h1'),                                     // rejected: the token was replaced
      accepted(bob, 'h2'),                                     // rejected: addressed to Ann
      accepted(ann, 'h2'),
      accepted(ann, 'h2'),                                     // rejected: accepted already
      created(i2, 'zed@x.org', 'h3'),
      ev('accounts.invitation.revoked', { organization_id: org, email: 'ZED@x.org' }),
    ];
    const verdicts: string[] = [];
    for (const e of history) {
      const decision = invitation.decide(e as never, await loadInvitationState(db.pool, e as never));
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      verdicts.push(decision.status === 'accepted' ? 'ok' : decision.code);
    }
    expect(verdicts).toEqual(['ok', 'invitation_member_exists', 'invitation_member_exists', 'ok', 'invitation_not_found', 'invitation_wrong_user', 'ok', 'invitation_accepted', 'ok', 'ok']);

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
