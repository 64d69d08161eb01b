// The project projection and scoped roles against the real Postgres: after each event the state the
// loader returns for it (organization, workspace, project with its default flag; for a scoped role,
// the role's target) is written out; an operator's project lands in the organization's workspace (a
// new default takes the default), a project role is one row that the permission read sees, and a
// deleted project takes its keys and roles with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { defaultProjectOf, type EventOf, findMembership, loadState, membershipId, projectMemberships, readProject } from '@llm/account-model';
import { readProjectRetention } from '@llm/accounts-read';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

describe('project projection and scoped roles (Postgres)', () => {
  it('creates, defaults, grants, revokes and deletes as the events say; refused events change nothing', async () => {
    const hex = randomBytes(4).toString('hex');
    const [owner, kim, org, ws, prj, extra, main] = Array.from({ length: 7 }, (): string => randomUUID()) as [string, string, string, string, string, string, string];
    const account = (user: string, id: string, w: string = randomUUID(), p: string = randomUUID()) => ev('accounts.account.provisioned', {
      user: { id: user, email: `${user}@x.org`, name: '', username: hex }, organization: { id, name: 'O', slug: `o-${id}` },
      workspace: { id: w, name: 'W', slug: 'w' }, project: { id: p, name: 'P', slug: 'p' }, api_key: null,
    });
    const created = (id: string, isDefault: boolean) =>
      ev('accounts.project.created', { organization_id: org, workspace_id: ws, project: { id, name: id.slice(0, 4), slug: id }, is_default: isDefault });
    const role = (scope: 'project' | 'workspace', id: string, r: string) =>
      ev('accounts.membership.set', { organization_id: org, user_id: kim, role: r, scope, scope_id: id });
    expect(await db.apply(account(owner, org, ws, prj), account(kim, randomUUID() as string))).toEqual([{ status: 'applied' }, { status: 'applied' }]);

    const organization = { id: org };
    const workspace = { id: ws, organizationId: org };
    expect(await db.step('project', created(extra, false)))
      .toEqual({ verdict: 'ok', after: { organization, workspace, project: { id: extra, organizationId: org, isDefault: false } } });
    // Kim holds no organization role: scoped roles leave the organization's members as they are; the loader sees the scope's target.
    const kimAlone = { organizations: [{ id: org, ownerId: owner }], users: [{ id: kim }], members: [] };
    expect(await db.step('membership', role('project', extra, 'editor'))).toEqual({ verdict: 'ok', after: { ...kimAlone, targets: [{ kind: 'project', id: extra, organizationId: org }] } });
    expect(await db.step('membership', role('workspace', ws, 'viewer'))).toEqual({ verdict: 'ok', after: { ...kimAlone, targets: [{ kind: 'workspace', id: ws, organizationId: org }] } });
    expect(await db.step('membership', role('project', randomUUID(), 'viewer'))).toEqual({ verdict: 'membership_scope_not_found', after: { ...kimAlone, targets: [] } });
    expect(await readProject(db.pool, extra)).toMatchObject({ organization_id: org, workspace_id: ws, is_default: false });
    expect((await projectMemberships(db.pool, extra, kim)).map((m) => m.role).sort()).toEqual(['editor', 'viewer']);
    expect(await findMembership(db.pool, 'project', extra, membershipId('project', extra, kim))).toMatchObject({ user_id: kim, role: 'editor' });

    // A scoped removal takes that row alone.
    expect(await db.step('membership', ev('accounts.membership.removed', { organization_id: org, user_id: kim, scope: 'workspace', scope_id: ws })))
      .toEqual({ verdict: 'ok', after: { ...kimAlone, targets: [{ kind: 'workspace', id: ws, organizationId: org }] } });
    expect((await projectMemberships(db.pool, extra, kim)).map((m) => m.role)).toEqual(['editor']);

    // A new default takes the default; the former default can then go, the new one cannot.
    const removed = (id: string) => ev('accounts.project.deleted', { organization_id: org, project_id: id });
    expect(await db.step('project', created(main, true))).toEqual({ verdict: 'ok', after: { organization, workspace, project: { id: main, organizationId: org, isDefault: true } } });
    expect(await defaultProjectOf(db.pool, org)).toBe(main);
    expect(await loadState(db.pool, 'project', removed(prj) as EventOf<'project'>)).toEqual({ organization, project: { id: prj, organizationId: org, isDefault: false } });
    expect(await db.step('project', removed(extra))).toEqual({ verdict: 'ok', after: { organization } });
    expect(await db.step('project', removed(main))).toEqual({ verdict: 'project_default_kept', after: { organization, project: { id: main, organizationId: org, isDefault: true } } });
    expect(await db.step('project', removed(extra))).toEqual({ verdict: 'project_not_found', after: { organization } });
    expect(await readProject(db.pool, extra)).toBeUndefined();
    expect((await db.pool.query("SELECT count(*)::int AS n FROM memberships WHERE scope = 'project' AND scope_id = $1", [extra])).rows[0].n).toBe(0);
  });

  it('when a project\'s retention is set, then the row carries it, 0 restores the plan\'s, and an unknown project or a negative value changes nothing', async () => {
    const [owner, org, ws, prj] = Array.from({ length: 4 }, (): string => randomUUID()) as [string, string, string, string];
    const hex = randomBytes(4).toString('hex');
    expect(await db.apply(ev('accounts.account.provisioned', {
      user: { id: owner, email: `${owner}@x.org`, name: '', username: hex }, organization: { id: org, name: 'O', slug: `o-${org}` },
      workspace: { id: ws, name: 'W', slug: 'w' }, project: { id: prj, name: 'P', slug: 'p' }, api_key: null,
    }))).toEqual([{ status: 'applied' }]);
    const set = (project: string, minutes: number) => ev('accounts.project.retention_set', { organization_id: org, project_id: project, retention_minutes: minutes });
    // The retention is no part of the state a decision looks at: the project stays as it is.
    const theProject = { organization: { id: org }, project: { id: prj, organizationId: org, isDefault: true } };
    expect(await db.step('project', set(prj, 60))).toEqual({ verdict: 'ok', after: theProject });
    expect(await db.step('project', set(randomUUID(), 60))).toEqual({ verdict: 'project_not_found', after: { organization: { id: org } } });
    expect(await db.step('project', set(prj, -5))).toEqual({ verdict: 'project_retention_invalid', after: theProject });
    expect(await readProjectRetention(db.pool, prj)).toEqual({ project_id: prj, organization_id: org, retention_minutes: 60 });
    expect(await db.apply(set(prj, 0))).toEqual([{ status: 'applied' }]);
    expect((await readProjectRetention(db.pool, prj))?.retention_minutes).toBe(0);
  });
});
