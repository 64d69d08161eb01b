// The user projection's SQL against the real Postgres: after each event, the state the reader loads
// is the state the aggregate's `evolve` says (rejections change nothing); provisioning stores the
// whole account, sign-ins their identities and auto-join memberships, deletion takes the owned
// organizations along, and a malformed id is a harmless no-op, never a failing cast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { user, type AccountEvent, type UserState } from '@llm/account-model';
import { findUsableApiKey, loadUsers, userByIdentity, userIdentities } from '@llm/accounts-read';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const normal = (s: UserState) => ({
  users: [...s.users].sort((a, b) => a.id.localeCompare(b.id)),
  organizations: [...s.organizations].sort((a, b) => a.id.localeCompare(b.id)),
});

describe('user projection (Postgres)', () => {
  it('stores what evolve says, event by event', async () => {
    const hex = randomBytes(4).toString('hex');
    const [kim, lee, pat, orgA, orgB, ws, prj, key] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const email = (who: string) => `${who}-${hex}@x.org`;
    const slug = (s: string) => `${s}-${hex}`;
    const provisioned = (id: string, mail: string, org: string, orgSlug: string, apiKey = false) => ev('accounts.account.provisioned', {
      user: { id, email: mail, name: '', username: mail.split('@')[0]! },
      organization: { id: org, name: 'Org', slug: orgSlug },
      workspace: { id: org === orgA ? ws : randomUUID(), name: 'W', slug: 'w' },
      project: { id: org === orgA ? prj : randomUUID(), name: 'P', slug: 'p' },
      api_key: apiKey ? { id: key, prefix: hex.slice(0, 8).padEnd(8, 'x'), secret_hash: `h-${hex}`, expires_at_us: 0 } : null,
    });
    const signedIn = (id: string, mail: string, create: boolean, autoJoin = '') => ev('accounts.identity.signed_in', {
      user_id: id, email: mail, name: 'Pat', create_user: create, method: 'sso:acme:okta', subject: `sub-${hex}`, issuer: 'https://idp', auto_join_organization_id: autoJoin,
    });
    const deleted = (id: string, mail: string) => ev('accounts.user.deleted', { user_id: id, email: mail });

    const history: AccountEvent[] = [
      provisioned(kim, email('kim'), orgA, slug('a'), true),
      provisioned(lee, email('KIM').toUpperCase(), orgB, slug('b')),    // rejected: the e-mail, in another case
      provisioned(lee, email('lee'), orgB, slug('a')),                  // rejected: the slug
      provisioned(lee, email('lee'), orgB, slug('b')),
      signedIn(pat, email('pat'), true, orgA),
      signedIn(randomUUID(), email('pat'), true),                       // rejected: created meanwhile
      signedIn(pat, email('pat'), false),
      signedIn(randomUUID(), email('nobody'), false),                   // rejected: no such user
      signedIn(lee, email('pat'), false),                               // rejected: the e-mail is pat's
      deleted(kim, email('kim')),
      deleted(randomUUID(), email('ghost')),                            // nobody: accepted, nothing changes
      deleted('not-a-uuid', email('ghost')),                            // malformed: accepted, nothing changes
      provisioned(randomUUID(), email('kim'), randomUUID(), slug('a')), // the e-mail and the slug are free again
    ];
    const selection = { ids: [kim, lee, pat], emails: ['kim', 'lee', 'pat', 'nobody'].map(email), slugs: [slug('a'), slug('b')] };
    let expected = user.initial;
    const verdicts: string[] = [];
    for (const e of history) {
      const before = await loadUsers(db.pool, selection);
      const decision = user.decide(e as never, before);
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      verdicts.push(decision.status === 'accepted' ? 'ok' : decision.code);
      if (decision.status === 'accepted') expected = user.evolve(expected, e as never);
      const after = await loadUsers(db.pool, { ...selection, ids: [...selection.ids, ...expected.users.map((u) => u.id)] });
      expect(normal(after)).toEqual(normal(expected));
      if (e === history[4]) {
        // Auto-join: a viewer of the organization, its workspace and its project.
        const joined = await db.pool.query<{ scope: string; role: string }>('SELECT scope, role FROM memberships WHERE user_id = $1 ORDER BY scope', [pat]);
        expect(joined.rows).toEqual([{ scope: 'organization', role: 'viewer' }, { scope: 'project', role: 'viewer' }, { scope: 'workspace', role: 'viewer' }]);
        expect(await userByIdentity(db.pool, 'sso:acme:okta', 'https://idp', `sub-${hex}`)).toEqual({ id: pat, email: email('pat') });
        expect(await findUsableApiKey(db.pool, hex.slice(0, 8).padEnd(8, 'x'), `h-${hex}`)).toMatchObject({ id: key, project_id: prj, workspace_id: ws, organization_id: orgA, user_id: kim });
      }
    }
    expect(verdicts).toEqual(['ok', 'user_exists', 'organization_slug_exists', 'ok', 'ok', 'user_exists', 'ok', 'user_not_found', 'user_exists', 'ok', 'ok', 'ok', 'ok']);
    // Kim's organization went with Kim: its workspace, project and key cascaded.
    for (const [table, id] of [['organizations', orgA], ['workspaces', ws], ['projects', prj], ['api_keys', key]] as const) {
      expect((await db.pool.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).rowCount, table).toBe(0);
    }
    expect(await userIdentities(db.pool, pat)).toEqual(['sso:acme:okta']);
  });

  it('given a user alone (accounts.user.created), then the user row exists without an organization, and the e-mail is taken', async () => {
    const hex = randomBytes(4).toString('hex');
    const [ada, other] = [randomUUID(), randomUUID()];
    const mail = `ada-${hex}@x.org`;
    const created = (id: string, email: string) => ev('accounts.user.created', { user: { id, email, name: 'Ada', username: 'ada' } });
    const selection = { ids: [ada, other], emails: [mail] };
    let expected = user.initial;
    const verdicts: string[] = [];
    for (const e of [created(ada, mail), created(other, mail.toUpperCase())]) {
      const decision = user.decide(e as never, await loadUsers(db.pool, selection));
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      verdicts.push(decision.status === 'accepted' ? 'ok' : decision.code);
      if (decision.status === 'accepted') expected = user.evolve(expected, e as never);
      expect(normal(await loadUsers(db.pool, selection))).toEqual(normal(expected));
    }
    expect(verdicts).toEqual(['ok', 'user_exists']);
    expect((await db.pool.query('SELECT name, username FROM users WHERE id = $1', [ada])).rows).toEqual([{ name: 'Ada', username: 'ada' }]);
    expect((await db.pool.query('SELECT 1 FROM memberships WHERE user_id = $1', [ada])).rowCount).toBe(0);
  });
});
