// Given/when/then of the session aggregate: signing out is always a fact, and idempotent by session id.
import { describe, expect, it } from 'vitest';
import { session } from '../src/aggregates/session.ts';
import { ev, given } from './support/given.ts';

const USER = '00000000-0000-4000-8000-000000000001';
const revoked = (sid: string) => ev('accounts.session.revoked', { sid, user_id: USER, expires_at_us: 1_800_000_000_000_000 });

describe('session aggregate', () => {
  it('given nothing, when a session is revoked, then its id is remembered', () => {
    const t = given(session, []).when(revoked('s1'));
    expect(t.decision).toEqual({ status: 'accepted' });
    expect(t.state).toEqual({ revoked: ['s1'] });
  });

  it('given the session was revoked, when it is revoked again, then it is accepted and nothing changes', () => {
    const h = given(session, [revoked('s1'), revoked('s2')]);
    const t = h.when(revoked('s1'));
    expect(t.decision.status).toBe('accepted');
    expect(t.state).toEqual({ revoked: ['s1', 's2'] });
  });

  it('has no rejections', () => {
    expect(session.rejections).toEqual({});
  });
});
