// Given/when/then of the session aggregate: signing out is always a fact, and idempotent by session id.
import { describe, expect, it } from 'vitest';
import { session, type SessionState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

const USER = '00000000-0000-4000-8000-000000000001';
const revoked = (sid: string) => ev('accounts.session.revoked', { sid, user_id: USER, expires_at_us: 1_800_000_000_000_000 });
const nothing: SessionState = { revoked: [] };
const s1s2: SessionState = { revoked: ['s1', 's2'] };

describe('session aggregate', () => {
  it('given nothing, when a session is revoked, then it is accepted', () => {
    expect(decideOn(session, nothing, revoked('s1'))).toEqual({ status: 'accepted' });
  });

  it('given the session was revoked, when it is revoked again, then it is accepted', () => {
    expect(decideOn(session, s1s2, revoked('s1')).status).toBe('accepted');
  });

  it('has no rejections', () => {
    expect(session.rejections).toEqual({});
  });
});
