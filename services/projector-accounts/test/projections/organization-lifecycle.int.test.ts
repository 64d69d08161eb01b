// The organization lifecycle projection's SQL against the real Postgres: after each event the state
// the loader returns for it (owner, slug taken, members' roles, organizations owned) is written out;
// a created organization has its Default workspace and project, owner memberships and
// subscription; a transfer swaps roles at every level both hold one
// (the former owner's other owner roles drop to the new owner's former role); a delete leaves no row
// of the organization behind, memberships included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { type AccountEvent, memberOrganizations, type OrganizationLifecycleState } from '@llm/account-model';
import { ev as event, openProjectionDb, type ProjectionDb, type Step } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const sortedMembers = (members: OrganizationLifecycleState['members']) => [...members].sort((a, b) => a.userId.localeCompare(b.userId));
const normal = ({ verdict, after }: Step<'organizationLifecycle'>) => ({ verdict, after: { ...after, members: sortedMembers(after.members), users: [...after.users].sort() } });

describe('organization lifecycle projection (Postgres)', () => {
  it('given two users, when an organization is created, handed over and deleted, then the loader returns its owner and roles as they stand; refused events change nothing', async () => {
    const hex = randomBytes(4).toString('hex');
    const [u1, u2, home, org, ws, project] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const [id, o] of [[u1, home], [u2, randomUUID()]] as const) {
      await db.apply(event('accounts.account.provisioned', {
        user: { id, email: `${id.slice(0, 8)}-${hex}@x.org`, name: '', username: hex }, organization: { id: o, name: 'Home', slug: `home-${id.slice(0, 8)}` },
        workspace: { id: randomUUID(), name: 'W', slug: 'w' }, project: { id: randomUUID(), name: 'P', slug: 'p' }, api_key: null,
      }));
    }
    const created = (over: { id?: string; owner?: string } = {}) => event('accounts.organization.created', {
      organization: { id: over.id ?? org, name: 'Research', slug: `research-${hex}`, plan: 'hobby' }, owner_id: over.owner ?? u1, description: '',
      workspace: { id: ws, name: 'Default', slug: 'default' }, project: { id: project, name: 'Default', slug: 'default' },
    });
    const users = [u1, u2].sort();
    // Each event, its verdict, and the state the loader returns for it afterwards: the organization
    // with its owner, whether the slug asked for is taken, which of the named users exist, how many
    // organizations the deleting actor owns, and the named users' roles in the organization.
    const steps: Array<[AccountEvent, string, OrganizationLifecycleState]> = [
      [created({ owner: randomUUID() }), 'organization_owner_not_found', { slugTaken: false, users: [], ownedByActor: 0, members: [] }],
      [created(), 'ok', { organization: { id: org, ownerId: u1 }, slugTaken: true, users: [u1], ownedByActor: 0, members: [{ userId: u1, role: 'owner' }] }],
      [created({ id: randomUUID() }), 'organization_slug_taken', { slugTaken: true, users: [u1], ownedByActor: 0, members: [] }],
      [event('accounts.organization.transferred', { organization_id: org, from_user_id: u1, to_user_id: u2 }), 'organization_transfer_invalid', // not a member
        { organization: { id: org, ownerId: u1 }, slugTaken: false, users, ownedByActor: 0, members: [{ userId: u1, role: 'owner' }] }],
    ];
    const afterJoin: Array<[AccountEvent, string, OrganizationLifecycleState]> = [
      [event('accounts.organization.transferred', { organization_id: org, from_user_id: u2, to_user_id: u1 }), 'organization_transfer_owner_only',
        { organization: { id: org, ownerId: u1 }, slugTaken: false, users, ownedByActor: 0, members: sortedMembers([{ userId: u1, role: 'owner' }, { userId: u2, role: 'editor' }]) }],
      // The roles swap.
      [event('accounts.organization.transferred', { organization_id: org, from_user_id: u1, to_user_id: u2 }), 'ok',
        { organization: { id: org, ownerId: u2 }, slugTaken: false, users, ownedByActor: 0, members: sortedMembers([{ userId: u1, role: 'editor' }, { userId: u2, role: 'owner' }]) }],
      // u1 is no longer the owner; u1 owns one organization (their home).
      [event('accounts.organization.deleted', { organization_id: org, actor_id: u1 }), 'organization_owner_only',
        { organization: { id: org, ownerId: u2 }, slugTaken: false, users: [u1], ownedByActor: 1, members: [{ userId: u1, role: 'editor' }] }],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) expect(normal(await db.step('organizationLifecycle', e)), `step ${i}`).toEqual({ verdict, after });
    // u2 joins as an editor (a membership event).
    expect(await db.step('membership', event('accounts.membership.set', { organization_id: org, user_id: u2, role: 'editor' })))
      .toEqual({ verdict: 'ok', after: { organizations: [{ id: org, ownerId: u1 }], users: [{ id: u2 }], members: [{ organizationId: org, userId: u2, role: 'editor' }] } });
    for (const [i, [e, verdict, after]] of afterJoin.entries()) expect(normal(await db.step('organizationLifecycle', e)), `step ${i} after the join`).toEqual({ verdict, after });

    // After the transfer: u2 owns it; the roles swapped in the organization; u1's workspace and
    // project owner roles became u2's former role (u2 was not a member there).
    const roles = await db.pool.query(`SELECT scope, user_id::text AS user_id, role FROM memberships WHERE scope_id IN ($1, $2, $3) ORDER BY scope, user_id`, [org, ws, project]);
    expect(roles.rows).toEqual([
      { scope: 'organization', user_id: u1, role: 'editor' }, { scope: 'organization', user_id: u2, role: 'owner' },
      { scope: 'project', user_id: u1, role: 'editor' }, { scope: 'workspace', user_id: u1, role: 'editor' },
    ].sort((a, b) => a.scope.localeCompare(b.scope) || a.user_id.localeCompare(b.user_id)));
    expect((await memberOrganizations(db.pool, u2)).map((o) => [o.id, o.owner_id])).toContainEqual([org, u2]);
    expect((await db.pool.query('SELECT plan FROM organization_subscriptions WHERE organization_id = $1', [org])).rows).toEqual([{ plan: 'hobby' }]);

    // The new owner deletes it (they own two, one left): nothing of it stays.
    expect(normal(await db.step('organizationLifecycle', event('accounts.organization.deleted', { organization_id: org, actor_id: u2 }))))
      .toEqual({ verdict: 'ok', after: { slugTaken: false, users: [u2], ownedByActor: 1, members: [] } });
    const left = await db.pool.query(`SELECT (SELECT count(*)::int FROM organizations WHERE id = $1) AS orgs, (SELECT count(*)::int FROM workspaces WHERE organization_id = $1) AS workspaces,
        (SELECT count(*)::int FROM projects WHERE organization_id = $1) AS projects, (SELECT count(*)::int FROM memberships WHERE scope_id IN ($1, $2, $3)) AS memberships,
        (SELECT count(*)::int FROM organization_subscriptions WHERE organization_id = $1) AS subscriptions`, [org, ws, project]);
    expect(left.rows[0]).toEqual({ orgs: 0, workspaces: 0, projects: 0, memberships: 0, subscriptions: 0 });
    // The last one stays.
    expect(normal(await db.step('organizationLifecycle', event('accounts.organization.deleted', { organization_id: home, actor_id: u1 }))))
      .toEqual({ verdict: 'organization_last', after: { organization: { id: home, ownerId: u1 }, slugTaken: false, users: [u1], ownedByActor: 1, members: [{ userId: u1, role: 'owner' }] } });
  });
});
