// The secret projection's SQL against the real Postgres: after each event the state the reader
// loads is what `evolve` says; the row holds the sealed value as sent and no credential in clear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { secret, type AccountEvent, type SecretState } from '@llm/account-model';
import { loadSecretState, readSecret } from '@llm/accounts-read';
import type { SecretInfo } from '@llm/events';
import { ev as event, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

const ev = (type: Parameters<typeof event>[0], payload: Parameters<typeof event>[1]): AccountEvent => event(type, payload, { actorId: 'u1' });

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const sorted = (s: SecretState) => [...s.secrets].sort((a, b) => a.id.localeCompare(b.id));

describe('secret projection (Postgres)', () => {
  it('stores what evolve says, event by event', async () => {
    const hex = randomBytes(4).toString('hex');
    const [userId, orgId, wsId, projectId, s1, s2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await db.apply(ev('accounts.account.provisioned', {
      user: { id: userId, email: `${hex}@x.org`, name: '', username: hex }, organization: { id: orgId, name: 'A', slug: `a-${hex}` },
      workspace: { id: wsId, name: 'W', slug: 'w' }, project: { id: projectId, name: 'P', slug: 'p' }, api_key: null,
    }));
    const info = (over: Partial<SecretInfo>): SecretInfo => ({
      secret_id: s1, project_id: projectId, slug: 'one', kind: 'provider_key', name: 'OpenAI', description: '', public_data_json: '{"kind":"openai","provider":{}}',
      sealed_data: 'v1.k.iv.ct.tag', write_only: true, managed_by: '', configured: true, ...over,
    });
    const history: AccountEvent[] = [
      ev('accounts.secret.created', { secret: info({}) }),
      ev('accounts.secret.created', { secret: info({ secret_id: s2 }) }),            // rejected: slug taken
      ev('accounts.secret.created', { secret: info({ secret_id: s2, slug: 'two', name: 'OpenAI 2' }) }),
      ev('accounts.secret.updated', { secret: info({ name: 'Renamed', sealed_data: 'v1.k.iv.ct2.tag' }) }),
      ev('accounts.secret.updated', { secret: info({ secret_id: randomUUID() }) }),   // rejected: not found
      ev('accounts.secret.deleted', { secret_id: s2, project_id: projectId }),
    ];
    let expected = await loadSecretState(db.pool, history[0] as never);
    const verdicts: string[] = [];
    for (const e of history) {
      const decision = secret.decide(e as never, expected);
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      verdicts.push(decision.status === 'accepted' ? 'ok' : decision.code);
      if (decision.status === 'accepted') expected = secret.evolve(expected, e as never);
      expect(sorted(await loadSecretState(db.pool, history[0] as never))).toEqual(sorted(expected));
    }
    expect(verdicts).toEqual(['ok', 'secret_slug_exists', 'ok', 'ok', 'secret_not_found', 'ok']);
    expect(await readSecret(db.pool, projectId, 'one')).toMatchObject({ id: s1, name: 'Renamed', sealed_data: 'v1.k.iv.ct2.tag', write_only: true, configured: true, updated_by_id: 'u1' });
    expect(await readSecret(db.pool, projectId, s2)).toBeUndefined();
  });
});
