// The secret projection's SQL against the real Postgres: after each event the project's secrets the
// loader returns (slug, name, version) are written out; the row holds the sealed value as sent and
// no credential in clear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { type AccountEvent, readSecret, type SecretState, type StoredSecret } from '@llm/account-model';
import type { SecretInfo } from '@llm/events';
import { ev as event, openProjectionDb, type ProjectionDb, type Step } from '../support/projection-db.ts';

const ev = (type: Parameters<typeof event>[0], payload: Parameters<typeof event>[1]): AccountEvent => event(type, payload, { actorId: 'u1' });

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const sorted = ({ verdict, after }: Step<'secret'>) => ({ verdict, after: { secrets: [...after.secrets].sort((a, b) => a.id.localeCompare(b.id)) } });

describe('secret projection (Postgres)', () => {
  it('given a project, when secrets are created, updated and deleted, then the loader returns each with its version; refused events change nothing', async () => {
    const hex = randomBytes(4).toString('hex');
    const [userId, orgId, wsId, projectId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [s1, s2] = [randomUUID(), randomUUID()].sort() as [string, string];
    await db.apply(ev('accounts.account.provisioned', {
      user: { id: userId, email: `${hex}@x.org`, name: '', username: hex }, organization: { id: orgId, name: 'A', slug: `a-${hex}` },
      workspace: { id: wsId, name: 'W', slug: 'w' }, project: { id: projectId, name: 'P', slug: 'p' }, api_key: null,
    }));
    const info = (over: Partial<SecretInfo>): SecretInfo => ({
      secret_id: s1, project_id: projectId, slug: 'one', kind: 'provider_key', name: 'OpenAI', description: '', public_data_json: '{"kind":"openai","provider":{}}',
      sealed_data: 'v1.k.iv.ct.tag', write_only: true, managed_by: '', configured: true, ...over,
    });
    const stored = (id: string, slug: string, name: string, version: number): StoredSecret =>
      ({ id, projectId, slug, kind: 'provider_key', name, managedBy: '', subscriptionProvider: '', version });
    // Each event, its verdict, and the project's secrets the loader returns afterwards (s1 sorts before s2).
    const steps: Array<[AccountEvent, string, SecretState]> = [
      [ev('accounts.secret.created', { secret: info({}) }), 'ok', { secrets: [stored(s1, 'one', 'OpenAI', 1)] }],
      [ev('accounts.secret.created', { secret: info({ secret_id: s2 }) }), 'secret_slug_exists', { secrets: [stored(s1, 'one', 'OpenAI', 1)] }],
      [ev('accounts.secret.created', { secret: info({ secret_id: s2, slug: 'two', name: 'OpenAI 2' }) }), 'ok', { secrets: [stored(s1, 'one', 'OpenAI', 1), stored(s2, 'two', 'OpenAI 2', 1)] }],
      [ev('accounts.secret.updated', { secret: info({ name: 'Renamed', sealed_data: 'v1.k.iv.ct2.tag' }) }), 'ok', { secrets: [stored(s1, 'one', 'Renamed', 2), stored(s2, 'two', 'OpenAI 2', 1)] }],
      [ev('accounts.secret.updated', { secret: info({ secret_id: randomUUID() }) }), 'secret_not_found', { secrets: [stored(s1, 'one', 'Renamed', 2), stored(s2, 'two', 'OpenAI 2', 1)] }],
      [ev('accounts.secret.deleted', { secret_id: s2, project_id: projectId }), 'ok', { secrets: [stored(s1, 'one', 'Renamed', 2)] }],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) expect(sorted(await db.step('secret', e)), `step ${i}`).toEqual({ verdict, after });
    expect(await readSecret(db.pool, projectId, 'one')).toMatchObject({ id: s1, name: 'Renamed', sealed_data: 'v1.k.iv.ct2.tag', write_only: true, configured: true, updated_by_id: 'u1' });
    expect(await readSecret(db.pool, projectId, s2)).toBeUndefined();
  });
});
