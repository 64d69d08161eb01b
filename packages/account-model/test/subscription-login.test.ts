// Given/when/then of subscription logins (reference accounts §7): what a usable login is, the push
// decision order, the failure report, and the device sign-in's attempts.
import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_UNKNOWN_ERROR, INITIAL_LOGIN_FIELDS, accessTokenAccount, decideCancel, decideFailure, decidePoll, decidePush, decideStart,
  isLiveAttempt, isUsableLogin, loginFieldsOf, type LoginAttempt, type LoginFields,
} from '../src/index.ts';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const HOUR = 3_600_000;
const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
const jwt = (payload: unknown): string => `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(payload)}.c2lnbmF0dXJl`;
const access = (account = 'acct-1'): string => jwt({ 'https://api.openai.com/auth': { chatgpt_account_id: account }, exp: 1 });
const login = (over: Record<string, unknown> = {}): Record<string, unknown> => ({ access: access(), refresh: 'rt-1', expires: NOW + HOUR, ...over });
const stored = (over: Partial<LoginFields> = {}): LoginFields => ({ login: login(), login_version: 3, login_generation: 2, login_state: 'ready', ...over });
const attempt = (over: Partial<LoginAttempt> = {}): LoginAttempt => ({
  id: 'att-1', expires_at: new Date(NOW + 60_000).toISOString(), user_code: 'ABCD-EFGH', verification_uri: 'https://auth.example.com/device', poll_after_ms: 5_000, ...over,
});

describe('usable login', () => {
  it('when the access token is a 3-part JWT naming a ChatGPT account, with a refresh token and a future expiry, then it is usable', () => {
    expect(isUsableLogin(login(), NOW)).toBe(true);
    expect(isUsableLogin(login({ accountId: 'acct-1' }), NOW)).toBe(true);
    expect(accessTokenAccount(access('acct-9'))).toBe('acct-9');
  });

  it.each([
    ['not an object', 'x'],
    ['an array', [login()]],
    ['no access', login({ access: undefined })],
    ['access with two parts', login({ access: access().split('.').slice(0, 2).join('.') })],
    ['access with four parts', login({ access: `${access()}.x` })],
    ['access payload not JSON', login({ access: `${b64({})}.bm90IGpzb24.c2ln` })],
    ['no auth claim', login({ access: jwt({ sub: 'x' }) })],
    ['empty account id', login({ access: access('') })],
    ['account id not a string', login({ access: jwt({ 'https://api.openai.com/auth': { chatgpt_account_id: 7 } }) })],
    ['accountId another account', login({ accountId: 'acct-2' })],
    ['blank refresh', login({ refresh: '  ' })],
    ['refresh not a string', login({ refresh: 12 })],
    ['expires in the past', login({ expires: NOW - 1 })],
    ['expires now', login({ expires: NOW })],
    ['expires a boolean', login({ expires: true })],
    ['expires a fraction', login({ expires: NOW + 0.5 })],
    ['expires a string', login({ expires: String(NOW + HOUR) })],
  ])('when the login has %s, then it is not usable', (_name, l) => {
    expect(isUsableLogin(l, NOW)).toBe(false);
  });
});

describe('push decision (first match wins)', () => {
  const push = (over: Record<string, unknown> = {}, generation = 2) => ({ login: login({ refresh: 'rt-2', expires: NOW + 2 * HOUR, ...over }), generation });

  it('given no stored login, when a login is pushed, then no_login', () => {
    expect(decidePush(stored({ login: undefined }), push(), NOW)).toEqual({ outcome: 'refused', reason: 'no_login', version: 3, generation: 2 });
  });
  it('given a login, when an unusable one is pushed (even of an older generation), then invalid_login', () => {
    expect(decidePush(stored(), push({ refresh: '' }, 1), NOW)).toMatchObject({ outcome: 'refused', reason: 'invalid_login' });
  });
  it('given generation 2, when generation 1 pushes, then stale with the current login and no reason', () => {
    const s = stored();
    expect(decidePush(s, push({ access: access('acct-2') }, 1), NOW)).toEqual({ outcome: 'stale', version: 3, generation: 2, login: s.login });
  });
  it('given generation 2, when generation 3 pushes, then wrong_generation', () => {
    expect(decidePush(stored(), push({}, 3), NOW)).toMatchObject({ outcome: 'refused', reason: 'wrong_generation', version: 3, generation: 2 });
  });
  it('given a login of account 1, when a login of account 2 is pushed, then other_account', () => {
    expect(decidePush(stored(), push({ access: access('acct-2') }), NOW)).toMatchObject({ outcome: 'refused', reason: 'other_account' });
    expect(decidePush(stored({ login: login({ accountId: 'acct-1', access: 'opaque' }) }), push({ access: access('acct-2') }), NOW)).toMatchObject({ reason: 'other_account' });
  });
  it('given a stored login naming no account, when another account pushes, then the account is not compared', () => {
    expect(decidePush(stored({ login: { access: 'opaque', refresh: 'rt-1', expires: NOW } }), push({ access: access('acct-2') }), NOW)).toMatchObject({ outcome: 'accepted' });
  });
  it('given refresh token rt-1, when rt-1 is pushed again, then same_login', () => {
    expect(decidePush(stored(), push({ refresh: 'rt-1' }), NOW)).toMatchObject({ outcome: 'refused', reason: 'same_login' });
  });
  it('given a later expiry, when an earlier one is pushed, then older_login', () => {
    expect(decidePush(stored({ login: login({ expires: NOW + 3 * HOUR }) }), push(), NOW)).toMatchObject({ outcome: 'refused', reason: 'older_login' });
  });
  it('given a login, when a newer one of the same account and generation is pushed, then it is stored: version+1, generation kept, ready, no error', () => {
    const p = push();
    const d = decidePush(stored({ login_state: 'needs_login', login_error: 'revoked' }), p, NOW);
    expect(d).toEqual({
      outcome: 'accepted', version: 4, generation: 2,
      next: { login: p.login, login_version: 4, login_generation: 2, login_state: 'ready', login_error: undefined },
    });
  });
  it('given an equal expiry, when a new refresh token is pushed, then it is accepted', () => {
    expect(decidePush(stored(), push({ expires: NOW + HOUR }), NOW)).toMatchObject({ outcome: 'accepted' });
  });
});

describe('failure report', () => {
  it('given version 3 generation 2, when an older version or generation reports, then stale with the current login', () => {
    const s = stored();
    expect(decideFailure(s, { version: 2, generation: 2, reason: 'x' })).toEqual({ outcome: 'stale', version: 3, generation: 2, login: s.login });
    expect(decideFailure(s, { version: 3, generation: 1, reason: 'x' })).toMatchObject({ outcome: 'stale' });
  });
  it('given version 3 generation 2, when that login fails, then the secret needs a login with the reason cut to 200', () => {
    const d = decideFailure(stored(), { version: 3, generation: 2, reason: 'r'.repeat(250) });
    expect(d).toMatchObject({ outcome: 'recorded', version: 3, generation: 2, next: { login_state: 'needs_login', login_version: 3, login_generation: 2 } });
    expect(d.outcome === 'recorded' && d.next.login_error).toBe('r'.repeat(200));
  });
});

describe('attempts', () => {
  it('an attempt is live while its expires_at is in the future', () => {
    expect(isLiveAttempt(attempt(), NOW)).toBe(true);
    expect(isLiveAttempt(attempt({ expires_at: new Date(NOW).toISOString() }), NOW)).toBe(false);
    expect(isLiveAttempt(attempt({ expires_at: 'soon' }), NOW)).toBe(false);
    expect(isLiveAttempt(undefined, NOW)).toBe(false);
  });

  it('given a live attempt, when a start comes, then it is the answer; given an expired one or none, then a new one starts', () => {
    expect(decideStart(stored({ login_attempt: attempt() }), NOW)).toEqual({ outcome: 'existing', attempt: attempt() });
    expect(decideStart(stored({ login_attempt: attempt({ expires_at: new Date(NOW - 1).toISOString() }) }), NOW)).toEqual({ outcome: 'start' });
    expect(decideStart(stored(), NOW)).toEqual({ outcome: 'start' });
  });

  const pending = stored({ login: undefined, login_version: 0, login_generation: 0, login_state: 'pending_login', login_attempt: attempt() });

  it('given attempt att-1, when another attempt is polled, then not_found', () => {
    expect(decidePoll(pending, 'att-2', { state: 'pending' }, NOW)).toEqual({ outcome: 'not_found' });
    expect(decidePoll(stored(), 'att-1', { state: 'pending' }, NOW)).toEqual({ outcome: 'not_found' });
  });
  it('when the runner says pending, then the stored attempt is the answer and nothing is written', () => {
    expect(decidePoll(pending, 'att-1', { state: 'pending' }, NOW)).toEqual({ outcome: 'pending', attempt: attempt() });
  });
  it('when the runner does not know the attempt, then it is cleared and failed "attempt not found; try again"', () => {
    expect(decidePoll(pending, 'att-1', { state: 'unknown' }, NOW)).toEqual({ outcome: 'ended', state: 'failed', error: ATTEMPT_UNKNOWN_ERROR, next: { ...pending, login_attempt: undefined } });
  });
  it('when the runner succeeded with a usable login, then it is stored: version+1, generation+1, ready, attempt and error cleared', () => {
    const l = login();
    const d = decidePoll({ ...pending, login_state: 'needs_login', login_error: 'x' }, 'att-1', { state: 'succeeded', login: l }, NOW);
    expect(d).toEqual({ outcome: 'succeeded', next: { login: l, login_version: 1, login_generation: 1, login_state: 'ready', login_error: undefined, login_attempt: undefined } });
  });
  it('when the runner succeeded with the refresh token already stored, then nothing is written', () => {
    expect(decidePoll({ ...stored(), login_attempt: attempt() }, 'att-1', { state: 'succeeded', login: login() }, NOW)).toEqual({ outcome: 'succeeded' });
  });
  it('when the runner succeeded with an unusable login, then it is cleared and failed invalid_login', () => {
    expect(decidePoll(pending, 'att-1', { state: 'succeeded', login: login({ expires: NOW - 1 }) }, NOW)).toMatchObject({ outcome: 'ended', state: 'failed', error: 'invalid_login', next: { login_attempt: undefined } });
  });
  it.each(['failed', 'expired', 'cancelled'] as const)('when the runner says %s, then it is cleared and echoed with its error', (state) => {
    expect(decidePoll(pending, 'att-1', { state, error: 'denied' }, NOW)).toEqual({ outcome: 'ended', state, error: 'denied', next: { ...pending, login_attempt: undefined } });
  });
  it('when the stored attempt is cancelled, then it is cleared; another id changes nothing', () => {
    expect(decideCancel(pending, 'att-1')).toEqual({ next: { ...pending, login_attempt: undefined } });
    expect(decideCancel(pending, 'att-2')).toEqual({});
  });
});

describe('stored fields', () => {
  it('when data lacks login fields, then they read as a new connection; a malformed attempt reads as none', () => {
    expect(loginFieldsOf({ provider: 'chatgpt' })).toEqual({ ...INITIAL_LOGIN_FIELDS, login: undefined, login_error: undefined, login_attempt: undefined });
    expect(loginFieldsOf({ login_attempt: { id: 1 }, login_version: -1, login_state: 'weird' }).login_attempt).toBeUndefined();
    expect(loginFieldsOf({ login_version: 2, login_generation: 1, login_state: 'needs_login', login_error: 'e', login_attempt: attempt() }))
      .toEqual({ login: undefined, login_version: 2, login_generation: 1, login_state: 'needs_login', login_error: 'e', login_attempt: attempt() });
  });
});
