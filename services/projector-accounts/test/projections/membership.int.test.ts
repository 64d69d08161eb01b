// The membership projection's SQL against the real Postgres: after each event, the state the
// loader returns for it (its organization with its owner, its user, the user's organization role)
// is written out (rejections change nothing); removal takes the user out of the organization's
// workspaces and projects too, and the member's role is what the permission check reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { type AccountEvent, isOrganizationMember, type MembershipState, projectMemberships, userOrganizations } from '@llm/account-model';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

describe('membership projection (Postgres)', () => {
  it('given a member by auto-join, when their role is set, refused and removed, then the loader returns each role as it stands', async () => {
    const hex = randomBytes(4).toString('hex');
    const [owner, kim, org, ws, prj, kimOrg, nobody, noOrg] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const account = (user: string, id: string, w = randomUUID(), p = randomUUID()) => ev('accounts.account.provisioned', {
      user: { id: user, email: `${user}@x.org`, name: '', username: hex }, organization: { id, name: 'O', slug: `o-${id}` },
      workspace: { id: w, name: 'W', slug: 'w' }, project: { id: p, name: 'P', slug: 'p' }, api_key: null,
    });
    // Kim joins the owner's organization at every level by signing in (auto-join: viewer).
    const joined = ev('accounts.identity.signed_in', {
      user_id: kim, email: `${kim}@x.org`, name: '', create_user: false, method: 'sso:o:p', subject: hex, issuer: 'https://idp', auto_join_organization_id: org,
    });
    expect(await db.apply(account(owner, org, ws, prj), account(kim, kimOrg), joined)).toEqual([{ status: 'applied' }, { status: 'applied' }, { status: 'applied' }]);
    const set = (user: string, role: string, o = org) => ev('accounts.membership.set', { organization_id: o, user_id: user, role });
    const removed = (user: string, o = org) => ev('accounts.membership.removed', { organization_id: o, user_id: user });
    const organizations = [{ id: org, ownerId: owner }];
    const kimAs = (role: string): MembershipState => ({ organizations, users: [{ id: kim }], members: [{ organizationId: org, userId: kim, role }] });
    const theOwner: MembershipState = { organizations, users: [{ id: owner }], members: [{ organizationId: org, userId: owner, role: 'owner' }] };

    // Each event, its verdict, and the state the loader returns for it afterwards.
    const steps: Array<[AccountEvent, string, MembershipState]> = [
      [set(kim, 'developer'), 'ok', kimAs('developer')],
      [set(owner, 'viewer'), 'owner_role_fixed', theOwner],
      [set(kim, 'root'), 'unknown_role', kimAs('developer')],
      [set(nobody, 'viewer'), 'user_not_found', { organizations, users: [], members: [] }],
      [set('not-a-uuid', 'viewer'), 'user_not_found', { organizations, users: [], members: [] }],
      [set(kim, 'viewer', noOrg), 'organization_not_found', { organizations: [], users: [{ id: kim }], members: [] }],
      [removed(owner), 'owner_not_removable', theOwner],
      [set(kim, 'admin'), 'ok', kimAs('admin')],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) expect(await db.step('membership', e), `step ${i}`).toEqual({ verdict, after });
    // The highest of Kim's roles in the project counts: admin (organization) over viewer (project, workspace).
    expect((await projectMemberships(db.pool, prj, kim)).map((m) => m.role).sort()).toEqual(['admin', 'viewer', 'viewer']);
    expect((await userOrganizations(db.pool, `${kim.toUpperCase()}@X.ORG`)).organizationIds.sort()).toEqual([kimOrg, org].sort());

    // Removal: out of the organization, its workspace and its project.
    expect(await db.step('membership', removed(kim))).toEqual({ verdict: 'ok', after: { organizations, users: [{ id: kim }], members: [] } });
    expect(await isOrganizationMember(db.pool, org, kim)).toBe(false);
    expect(await projectMemberships(db.pool, prj, kim)).toEqual([{ role: null, isOwner: false }]);
    expect(await projectMemberships(db.pool, prj, owner)).toEqual(expect.arrayContaining([{ role: 'owner', isOwner: true }]));
  });
});
