// The organization lifecycle projection's SQL against the real Postgres: after each event the state
// the reader loads is what `evolve` says; a created organization has its Default workspace and
// project, owner memberships and subscription; a transfer swaps roles at every level both hold one
// (the former owner's other owner roles drop to the new owner's former role); a delete leaves no row
// of the organization behind, memberships included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { organizationLifecycle, type AccountEvent, type OrganizationLifecycleState } from '@llm/account-model';
import { loadOrganizationLifecycleState, memberOrganizations } from '@llm/accounts-read';
import { ev as event, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const normal = (s: OrganizationLifecycleState) => ({ ...s, members: [...s.members].sort((a, b) => a.userId.localeCompare(b.userId)), users: [...s.users].sort() });

describe('organization lifecycle projection (Postgres)', () => {
  it('stores what evolve says, event by event', async () => {
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
    const history: AccountEvent[] = [
      created({ owner: randomUUID() }),                                                          // rejected: no such user
      created(),
      created({ id: randomUUID() }),                                                             // rejected: slug taken
      event('accounts.organization.transferred', { organization_id: org, from_user_id: u1, to_user_id: u2 }), // rejected: not a member
      event('accounts.membership.set', { organization_id: org, user_id: u2, role: 'editor' }),
      event('accounts.organization.transferred', { organization_id: org, from_user_id: u2, to_user_id: u1 }), // rejected: not the owner
      event('accounts.organization.transferred', { organization_id: org, from_user_id: u1, to_user_id: u2 }),
      event('accounts.organization.deleted', { organization_id: org, actor_id: u1 }),             // rejected: u1 is no longer the owner
    ];
    const verdicts: string[] = [];
    for (const e of history) {
      if (e.type === 'accounts.membership.set') { expect(await db.apply(e)).toEqual([{ status: 'applied' }]); verdicts.push('ok'); continue; }
      const expected = await loadOrganizationLifecycleState(db.pool, e as never);
      const decision = organizationLifecycle.decide(e as never, expected);
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      verdicts.push(decision.status === 'accepted' ? 'ok' : decision.code);
      if (decision.status === 'accepted') {
        const after = organizationLifecycle.evolve(expected, e as never);
        const loaded = await loadOrganizationLifecycleState(db.pool, e as never);
        expect(normal(loaded).organization).toEqual(after.organization);
        expect(normal(loaded).members).toEqual(normal(after).members);
      }
    }
    expect(verdicts).toEqual(['organization_owner_not_found', 'ok', 'organization_slug_taken', 'organization_transfer_invalid', 'ok', 'organization_transfer_owner_only', 'ok', 'organization_owner_only']);

    // After the transfer: u2 owns it; the roles swapped in the organization; u1's workspace and
    // project owner roles became u2's former role (u2 was not a member there).
    const roles = await db.pool.query(`SELECT scope, user_id::text AS user_id, role FROM memberships WHERE scope_id IN ($1, $2, $3) ORDER BY scope, user_id`, [org, ws, project]);
    expect(roles.rows).toEqual([
      { scope: 'organization', user_id: u1, role: 'editor' }, { scope: 'organization', user_id: u2, role: 'owner' },
      { scope: 'project', user_id: u1, role: 'editor' }, { scope: 'workspace', user_id: u1, role: 'editor' },
    ].sort((a, b) => a.scope.localeCompare(b.scope) || a.user_id.localeCompare(b.user_id)));
    expect((await memberOrganizations(db.pool, u2)).map((o) => [o.id, o.owner_id])).toContainEqual([org, u2]);
    expect((await db.pool.query('SELECT plan FROM organization_subscriptions WHERE organization_id = $1', [org])).rows).toEqual([{ plan: 'hobby' }]);

    // The new owner deletes it (they own two): nothing of it stays.
    expect(await db.apply(event('accounts.organization.deleted', { organization_id: org, actor_id: u2 }))).toEqual([{ status: 'applied' }]);
    const left = await db.pool.query(`SELECT (SELECT count(*)::int FROM organizations WHERE id = $1) AS orgs, (SELECT count(*)::int FROM workspaces WHERE organization_id = $1) AS workspaces,
        (SELECT count(*)::int FROM projects WHERE organization_id = $1) AS projects, (SELECT count(*)::int FROM memberships WHERE scope_id IN ($1, $2, $3)) AS memberships,
        (SELECT count(*)::int FROM organization_subscriptions WHERE organization_id = $1) AS subscriptions`, [org, ws, project]);
    expect(left.rows[0]).toEqual({ orgs: 0, workspaces: 0, projects: 0, memberships: 0, subscriptions: 0 });
    // The last one stays.
    expect(await db.apply(event('accounts.organization.deleted', { organization_id: home, actor_id: u1 }))).toEqual([expect.objectContaining({ code: 'organization_last' })]);
  });
});
