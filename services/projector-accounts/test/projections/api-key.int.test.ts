// The API key projection's SQL against the real Postgres: after each event, the state the reader
// loads is the state the aggregate's `evolve` says (rejections change nothing); a revoked key stops
// resolving as a credential, and malformed ids are refused, never a failing cast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { apiKey, type AccountEvent, type ApiKeyState } from '@llm/account-model';
import { findUsableApiKey, loadApiKeys, readApiKey } from '@llm/accounts-read';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const normal = (s: ApiKeyState) => ({ projects: [...s.projects].sort((a, b) => a.id.localeCompare(b.id)), keys: [...s.keys].sort((a, b) => a.id.localeCompare(b.id)) });

describe('api key projection (Postgres)', () => {
  it('stores what evolve says, event by event', async () => {
    const hex = randomBytes(4).toString('hex');
    const [userId, orgId, wsId, projectId, other, k1, k2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    expect(await db.apply(ev('accounts.account.provisioned', {
      user: { id: userId, email: `${hex}@x.org`, name: '', username: hex }, organization: { id: orgId, name: 'O', slug: `o-${hex}` },
      workspace: { id: wsId, name: 'W', slug: 'w' }, project: { id: projectId, name: 'P', slug: 'p' }, api_key: null,
    }))).toEqual([{ status: 'applied' }]);
    const prefix = `k${hex}xyz`.slice(0, 8);
    const created = (id: string, project: string = projectId) =>
      ev('accounts.api_key.created', { key_id: id, project_id: project, user_id: userId, prefix, secret_hash: `${id}-hash`, name: 'ci', expires_at_us: 0 });
    const revoked = (id: string, project: string = projectId) => ev('accounts.api_key.revoked', { key_id: id, project_id: project });

    const history: AccountEvent[] = [
      created(k1),
      created(k1),                 // rejected: the id exists
      created(k2, other),          // rejected: no such project
      created(k2, 'not-a-uuid'),   // rejected: no such project (malformed)
      revoked(k1, other),          // rejected: not a key of that project
      revoked('not-a-uuid'),       // rejected: no such key (malformed)
      revoked(k1),
      revoked(k1),                 // harmless: the first revocation stands
    ];
    let expected = await loadApiKeys(db.pool, [projectId, other, 'not-a-uuid'], [k1, k2, 'not-a-uuid']);
    expect(normal(expected)).toEqual({ projects: [{ id: projectId }], keys: [] });
    const verdicts: string[] = [];
    let firstRevocation: Date | null = null;
    for (const e of history) {
      const decision = apiKey.decide(e as never, expected);
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      verdicts.push(decision.status === 'accepted' ? 'ok' : decision.code);
      if (decision.status === 'accepted') expected = apiKey.evolve(expected, e as never);
      expect(normal(await loadApiKeys(db.pool, [projectId, other, 'not-a-uuid'], [k1, k2, 'not-a-uuid']))).toEqual(normal(expected));
      if (e === history[0]) expect(await findUsableApiKey(db.pool, prefix, `${k1}-hash`)).toMatchObject({ id: k1, project_id: projectId, user_id: userId });
      if (e === history[6]) firstRevocation = (await readApiKey(db.pool, projectId, k1))!.revoked_at;
    }
    expect(verdicts).toEqual(['ok', 'api_key_exists', 'project_not_found', 'project_not_found', 'api_key_not_found', 'api_key_not_found', 'ok', 'ok']);
    expect(firstRevocation).toBeInstanceOf(Date);
    expect((await readApiKey(db.pool, projectId, prefix))!.revoked_at).toEqual(firstRevocation);
    expect(await findUsableApiKey(db.pool, prefix, `${k1}-hash`)).toBeUndefined();
  });
});
