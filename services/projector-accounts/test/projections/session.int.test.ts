// The session projection's SQL against the real Postgres: a sign-out is remembered by session id,
// once (the first time stands), as evolve says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { session, type AccountEvent } from '@llm/account-model';
import { isSessionRevoked, loadRevokedSessions } from '@llm/accounts-read';
import { openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

const ev = (sid: string, timeUs: number): AccountEvent =>
  ({ type: 'accounts.session.revoked', payload: { sid, user_id: randomUUID(), expires_at_us: 1_900_000_000_000_000 }, projectId: '', organizationId: '', actorId: '', expectedVersion: 0, timeUs }) as AccountEvent;

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

describe('session projection (Postgres)', () => {
  it('stores what evolve says; a second sign-out of the session changes nothing', async () => {
    const [s1, s2] = [randomBytes(16).toString('base64url'), randomBytes(16).toString('base64url')];
    const first = Date.UTC(2030, 0, 1) * 1000;
    let expected = session.initial;
    for (const e of [ev(s1, first), ev(s1, first + 60_000_000), ev(s2, first)]) {
      expect(await db.apply(e)).toEqual([{ status: 'applied' }]);
      expected = session.evolve(expected, e as never);
      expect((await loadRevokedSessions(db.pool, [s1, s2])).revoked.sort()).toEqual([...expected.revoked].sort());
    }
    expect(await isSessionRevoked(db.pool, s1)).toBe(true);
    expect(await isSessionRevoked(db.pool, 'never-signed-out')).toBe(false);
    const row = await db.pool.query<{ revoked_at: Date; expires_at: Date }>('SELECT revoked_at, expires_at FROM revoked_sessions WHERE sid = $1', [s1]);
    expect(row.rows[0]).toEqual({ revoked_at: new Date(first / 1000), expires_at: new Date(1_900_000_000_000) });
  });
});
