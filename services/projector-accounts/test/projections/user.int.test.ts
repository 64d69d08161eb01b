// The user projection's SQL against the real Postgres: after each event, the state the loader
// returns for it (its users by id and e-mail, its organization by slug) is written out (rejections
// change nothing); provisioning stores the whole account, sign-ins their identities and auto-join
// memberships, deletion takes the owned organizations along, and a malformed id is a harmless
// no-op, never a failing cast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { type AccountEvent, findUsableApiKey, userByIdentity, userIdentities, type UserState } from '@llm/account-model';
import { ev, openProjectionDb, type ProjectionDb, type Step } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const normal = ({ verdict, after }: Step<'user'>) => ({
  verdict, users: [...after.users].sort((a, b) => a.id.localeCompare(b.id)), organizations: [...after.organizations].sort((a, b) => a.id.localeCompare(b.id)),
});

describe('user projection (Postgres)', () => {
  it('given accounts provisioned, signed in and deleted, then the loader returns each user and organization as it stands; refused events change nothing', async () => {
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

    const [kim2, orgA2] = [randomUUID(), randomUUID()];
    const none: UserState = { users: [], organizations: [] };
    const kimUser = { id: kim, email: email('kim') };
    const patUser = { id: pat, email: email('pat') };
    // Each event, its verdict, and the state the loader returns for it afterwards: the users with its
    // user id or e-mail (in any case), and the organization with its slug.
    const steps: Array<[AccountEvent, string, UserState]> = [
      [provisioned(kim, email('kim'), orgA, slug('a'), true), 'ok', { users: [kimUser], organizations: [{ id: orgA, slug: slug('a'), ownerId: kim }] }],
      [provisioned(lee, email('KIM').toUpperCase(), orgB, slug('b')), 'user_exists', { users: [kimUser], organizations: [] }],   // the e-mail, in another case
      [provisioned(lee, email('lee'), orgB, slug('a')), 'organization_slug_exists', { users: [], organizations: [{ id: orgA, slug: slug('a'), ownerId: kim }] }],
      [provisioned(lee, email('lee'), orgB, slug('b')), 'ok', { users: [{ id: lee, email: email('lee') }], organizations: [{ id: orgB, slug: slug('b'), ownerId: lee }] }],
      [signedIn(pat, email('pat'), true, orgA), 'ok', { users: [patUser], organizations: [] }],
      [signedIn(randomUUID(), email('pat'), true), 'user_exists', { users: [patUser], organizations: [] }],   // created meanwhile
      [signedIn(pat, email('pat'), false), 'ok', { users: [patUser], organizations: [] }],
      [signedIn(randomUUID(), email('nobody'), false), 'user_not_found', none],
      [signedIn(lee, email('pat'), false), 'user_exists', { users: [{ id: lee, email: email('lee') }, patUser], organizations: [] }], // the e-mail is pat's
      [deleted(kim, email('kim')), 'ok', none],
      [deleted(randomUUID(), email('ghost')), 'ok', none],                  // nobody: accepted, nothing changes
      [deleted('not-a-uuid', email('ghost')), 'ok', none],                  // malformed: accepted, nothing changes
      // Kim's e-mail and organization slug are free again.
      [provisioned(kim2, email('kim'), orgA2, slug('a')), 'ok', { users: [{ id: kim2, email: email('kim') }], organizations: [{ id: orgA2, slug: slug('a'), ownerId: kim2 }] }],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) {
      expect(normal(await db.step('user', e)), `step ${i}`).toEqual(normal({ verdict, after }));
      if (i === 4) {
        // Auto-join: a viewer of the organization, its workspace and its project.
        const joined = await db.pool.query<{ scope: string; role: string }>('SELECT scope, role FROM memberships WHERE user_id = $1 ORDER BY scope', [pat]);
        expect(joined.rows).toEqual([{ scope: 'organization', role: 'viewer' }, { scope: 'project', role: 'viewer' }, { scope: 'workspace', role: 'viewer' }]);
        expect(await userByIdentity(db.pool, 'sso:acme:okta', 'https://idp', `sub-${hex}`)).toEqual({ id: pat, email: email('pat') });
        expect(await findUsableApiKey(db.pool, hex.slice(0, 8).padEnd(8, 'x'), `h-${hex}`)).toMatchObject({ id: key, project_id: prj, workspace_id: ws, organization_id: orgA, user_id: kim });
      }
    }
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
    const adaUser = { users: [{ id: ada, email: mail }], organizations: [] };
    expect(await db.step('user', created(ada, mail))).toEqual({ verdict: 'ok', after: adaUser });
    expect(await db.step('user', created(other, mail.toUpperCase()))).toEqual({ verdict: 'user_exists', after: adaUser });
    expect((await db.pool.query('SELECT name, username FROM users WHERE id = $1', [ada])).rows).toEqual([{ name: 'Ada', username: 'ada' }]);
    expect((await db.pool.query('SELECT 1 FROM memberships WHERE user_id = $1', [ada])).rowCount).toBe(0);
  });
});
