// The session projection's SQL against the real Postgres: a sign-out is remembered by session id,
// once (the first time stands); the loader answers, for each sign-out, whether its session is signed out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { type AccountEvent, isSessionRevoked } from '@llm/account-model';
import { openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

const ev = (sid: string, timeUs: number): AccountEvent =>
  ({ type: 'accounts.session.revoked', payload: { sid, user_id: randomUUID(), expires_at_us: 1_900_000_000_000_000 }, projectId: '', organizationId: '', actorId: '', expectedVersion: 0, timeUs }) as AccountEvent;

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

describe('session projection (Postgres)', () => {
  it('given sign-outs, then each session is signed out once; a second sign-out of the session changes nothing', async () => {
    const [s1, s2] = [randomBytes(16).toString('base64url'), randomBytes(16).toString('base64url')];
    const first = Date.UTC(2030, 0, 1) * 1000;
    expect(await db.step('session', ev(s1, first))).toEqual({ verdict: 'ok', after: { revoked: [s1] } });
    expect(await db.step('session', ev(s1, first + 60_000_000))).toEqual({ verdict: 'ok', after: { revoked: [s1] } });
    expect(await db.step('session', ev(s2, first))).toEqual({ verdict: 'ok', after: { revoked: [s2] } });
    expect(await isSessionRevoked(db.pool, s1)).toBe(true);
    expect(await isSessionRevoked(db.pool, 'never-signed-out')).toBe(false);
    // The first sign-out's time stands.
    const row = await db.pool.query<{ revoked_at: Date; expires_at: Date }>('SELECT revoked_at, expires_at FROM revoked_sessions WHERE sid = $1', [s1]);
    expect(row.rows[0]).toEqual({ revoked_at: new Date(first / 1000), expires_at: new Date(1_900_000_000_000) });
  });
});
