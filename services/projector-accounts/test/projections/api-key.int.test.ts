// The API key projection's SQL against the real Postgres: after each event, the state the loader
// returns for it is written out (rejections change nothing); a revoked key stops resolving as a
// credential, and malformed ids are refused, never a failing cast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { type AccountEvent, type ApiKeyState, findUsableApiKey, readApiKey } from '@llm/account-model';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

describe('api key projection (Postgres)', () => {
  it('given a project, when a key is created and revoked, then the loader sees the key, then the key revoked; refused events change nothing', async () => {
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
    const live = { id: k1, projectId, revoked: false };
    const gone = { id: k1, projectId, revoked: true };

    // Each event, its verdict, and the state the loader returns for it afterwards (its project if it exists, its key in any project).
    const steps: Array<[AccountEvent, string, ApiKeyState]> = [
      [created(k1), 'ok', { projects: [{ id: projectId }], keys: [live] }],
      [created(k1), 'api_key_exists', { projects: [{ id: projectId }], keys: [live] }],
      [created(k2, other), 'project_not_found', { projects: [], keys: [] }],
      [created(k2, 'not-a-uuid'), 'project_not_found', { projects: [], keys: [] }],
      [revoked(k1, other), 'api_key_not_found', { projects: [], keys: [live] }],
      [revoked('not-a-uuid'), 'api_key_not_found', { projects: [{ id: projectId }], keys: [] }],
      [revoked(k1), 'ok', { projects: [{ id: projectId }], keys: [gone] }],
      [revoked(k1), 'ok', { projects: [{ id: projectId }], keys: [gone] }], // harmless: the first revocation stands
    ];
    let firstRevocation: Date | null = null;
    for (const [i, [e, verdict, after]] of steps.entries()) {
      expect(await db.step('apiKey', e), `step ${i}`).toEqual({ verdict, after });
      if (i === 0) expect(await findUsableApiKey(db.pool, prefix, `${k1}-hash`)).toMatchObject({ id: k1, project_id: projectId, user_id: userId });
      if (i === 6) firstRevocation = (await readApiKey(db.pool, projectId, k1))!.revoked_at;
    }
    expect(firstRevocation).toBeInstanceOf(Date);
    expect((await readApiKey(db.pool, projectId, prefix))!.revoked_at).toEqual(firstRevocation);
    expect(await findUsableApiKey(db.pool, prefix, `${k1}-hash`)).toBeUndefined();
  });
});
