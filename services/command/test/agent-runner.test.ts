// The agent runner client: answers it believes, answers it refuses (502), and no runner at all (503).
import { describe, expect, it } from 'vitest';
import { AppError } from '@llm/errors';
import { AgentRunner, parseStarted, parseStatus } from '../src/vault/adapters/agent-runner.ts';

const started = { id: 'att_1', expires_at: '2026-11-23T12:10:00Z', user_code: 'ABCD-EFGH', verification_uri: 'https://auth.example.com/device', poll_after_ms: 5000 };
const kindOf = (fn: () => unknown): string | undefined => {
  try { fn(); return undefined; } catch (e) { return e instanceof AppError ? `${e.kind}:${e.code}` : 'other'; }
};
const rejectionOf = async (p: Promise<unknown>): Promise<string | undefined> => p.then(() => undefined, (e: unknown) => (e instanceof AppError ? `${e.kind}:${e.code}` : 'other'));
const answering = (status: number, body: string): typeof fetch => async () => new Response(body, { status, headers: { 'Content-Type': 'application/json' } });

describe('runner answers', () => {
  it('when a start answer is an attempt (extra fields too), then it is taken', () => {
    expect(parseStarted({ ...started, extra: 1 })).toEqual(started);
    expect(parseStarted({ ...started, expires_at: '2026-11-23T12:10:00+01:00' }).expires_at).toBe('2026-11-23T12:10:00+01:00');
  });

  it.each([
    ['no id', { ...started, id: undefined }],
    ['an id that is not URL-safe', { ...started, id: '../x' }],
    ['a date that is not one', { ...started, expires_at: 'tomorrow' }],
    ['a verification URI that is not http(s)', { ...started, verification_uri: 'javascript:alert(1)' }],
    ['a negative poll interval', { ...started, poll_after_ms: -1 }],
    ['a list', [started]],
  ])('when a start answer has %s, then it is a 502', (_n, json) => {
    expect(kindOf(() => parseStarted(json))).toBe('bad_gateway:agent_runner_failed');
  });

  it('when a status answer is readable, then its state, login and error come through (errors cut to 200)', () => {
    expect(parseStatus({ state: 'pending' })).toEqual({ state: 'pending' });
    expect(parseStatus({ state: 'succeeded', login: { refresh: 'r' } })).toEqual({ state: 'succeeded', login: { refresh: 'r' } });
    expect(parseStatus({ state: 'succeeded', login: null })).toEqual({ state: 'succeeded', login: undefined });
    expect(parseStatus({ state: 'failed', error: 'e'.repeat(300) })).toEqual({ state: 'failed', error: 'e'.repeat(200) });
    expect(parseStatus({ state: 'expired', error: null })).toEqual({ state: 'expired', error: undefined });
  });

  it.each([['an unknown state', { state: 'done' }], ['a login that is not an object', { state: 'succeeded', login: 'tok' }], ['nothing', null]])(
    'when a status answer has %s, then it is a 502', (_n, json) => {
      expect(kindOf(() => parseStatus(json))).toBe('bad_gateway:agent_runner_failed');
    },
  );
});

describe('runner calls', () => {
  it('when no runner is configured, then every call is a 503 and nothing is sent', async () => {
    let sent = 0;
    const r = new AgentRunner({ baseUrl: undefined, timeoutMs: 1000 }, async () => { sent++; return new Response('{}'); });
    expect(await rejectionOf(r.start('chatgpt'))).toBe('unavailable:agent_runner_not_configured');
    expect(await rejectionOf(r.status('a'))).toBe('unavailable:agent_runner_not_configured');
    expect(await rejectionOf(r.cancel('a'))).toBe('unavailable:agent_runner_not_configured');
    expect(sent).toBe(0);
  });

  it('when the runner answers 404 about an attempt, then the attempt is unknown; a cancel of it is done', async () => {
    const r = new AgentRunner({ baseUrl: 'http://runner', timeoutMs: 1000 }, answering(404, 'nope'));
    expect(await r.status('a')).toEqual({ state: 'unknown' });
    await expect(r.cancel('a')).resolves.toBeUndefined();
    expect(await rejectionOf(r.start('chatgpt'))).toBe('bad_gateway:agent_runner_failed');
  });

  it('when the runner fails, refuses, times out or answers something unreadable, then a 502', async () => {
    const at = (f: typeof fetch) => new AgentRunner({ baseUrl: 'http://runner', timeoutMs: 50 }, f);
    expect(await rejectionOf(at(answering(500, '{}')).start('chatgpt'))).toBe('bad_gateway:agent_runner_failed');
    expect(await rejectionOf(at(answering(200, 'not json')).status('a'))).toBe('bad_gateway:agent_runner_failed');
    expect(await rejectionOf(at(async () => { throw new TypeError('fetch failed'); }).status('a'))).toBe('bad_gateway:agent_runner_failed');
    const hang: typeof fetch = (_u, init) => new Promise((_res, rej) => init?.signal?.addEventListener('abort', () => rej(new Error('aborted'))));
    expect(await rejectionOf(at(hang).start('chatgpt'))).toBe('bad_gateway:agent_runner_failed');
  });

  it('when the runner starts an attempt, then the request goes to its base URL with the provider', async () => {
    let seen: { url: string; body: string } | undefined;
    const r = new AgentRunner({ baseUrl: 'http://runner:9', timeoutMs: 1000 }, async (url, init) => {
      seen = { url: String(url), body: String(init?.body) };
      return new Response(JSON.stringify(started), { status: 201 });
    });
    expect(await r.start('chatgpt')).toEqual(started);
    expect(seen).toEqual({ url: 'http://runner:9/v1/subscription-logins', body: '{"provider":"chatgpt"}' });
  });
});
