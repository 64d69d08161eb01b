// The membership projection's SQL against the real Postgres: after each event, the state the reader
// loads is the state the aggregate's `evolve` says (rejections change nothing); removal takes the
// user out of the organization's workspaces and projects too, and the member's role is what the
// permission check reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { membership, type AccountEvent, type MembershipState } from '@llm/account-model';
import { isOrganizationMember, loadMemberships, projectMemberships, userOrganizations } from '@llm/accounts-read';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const normal = (s: MembershipState) => ({
  organizations: [...s.organizations].sort((a, b) => a.id.localeCompare(b.id)),
  users: [...s.users].sort((a, b) => a.id.localeCompare(b.id)),
  members: [...s.members].sort((a, b) => a.userId.localeCompare(b.userId)),
});

describe('membership projection (Postgres)', () => {
  it('stores what evolve says, event by event', async () => {
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

    const history: AccountEvent[] = [
      set(kim, 'developer'),
      set(owner, 'viewer'),        // rejected: the owner keeps the owner role
      set(kim, 'root'),            // rejected: unknown role
      set(nobody, 'viewer'),       // rejected: no such user
      set('not-a-uuid', 'viewer'), // rejected: no such user (malformed)
      set(kim, 'viewer', noOrg),   // rejected: no such organization
      removed(owner),              // rejected: the owner keeps the owner role
      set(kim, 'admin'),
    ];
    const load = () => loadMemberships(db.pool, [org, noOrg, 'not-a-uuid'], [owner, kim, nobody, 'not-a-uuid']);
    let expected = await load();
    expect(expected.members).toContainEqual({ organizationId: org, userId: kim, role: 'viewer' });
    const verdicts: string[] = [];
    for (const e of history) {
      const decision = membership.decide(e as never, expected);
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      verdicts.push(decision.status === 'accepted' ? 'ok' : decision.code);
      if (decision.status === 'accepted') expected = membership.evolve(expected, e as never);
      expect(normal(await load())).toEqual(normal(expected));
    }
    expect(verdicts).toEqual(['ok', 'owner_role_fixed', 'unknown_role', 'user_not_found', 'user_not_found', 'organization_not_found', 'owner_role_fixed', 'ok']);
    // The highest of Kim's roles in the project counts: admin (organization) over viewer (project, workspace).
    expect((await projectMemberships(db.pool, prj, kim)).map((m) => m.role).sort()).toEqual(['admin', 'viewer', 'viewer']);
    expect((await userOrganizations(db.pool, `${kim.toUpperCase()}@X.ORG`)).organizationIds.sort()).toEqual([kimOrg, org].sort());

    // Removal: out of the organization, its workspace and its project.
    expect(await db.apply(removed(kim))).toEqual([{ status: 'applied' }]);
    expected = membership.evolve(expected, removed(kim) as never);
    expect(normal(await load())).toEqual(normal(expected));
    expect(await isOrganizationMember(db.pool, org, kim)).toBe(false);
    expect(await projectMemberships(db.pool, prj, kim)).toEqual([{ role: null, isOwner: false }]);
    expect(await projectMemberships(db.pool, prj, owner)).toEqual(expect.arrayContaining([{ role: 'owner', isOwner: true }]));
  });
});
