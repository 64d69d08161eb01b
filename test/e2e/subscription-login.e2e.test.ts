// Subscription logins end to end (reference accounts §7) on the real stack, with a loopback HTTP
// server started here acting as the agent runner (protocol: docs/architecture.md "Agent runner"): the device
// sign-in (start, poll, cancel, concurrent starts), the runner's pushes and failure reports, runner
// failures (502), permissions, and the login never leaving through /secrets. No runner at all (503)
// is services/command/test/agent-runner.test.ts: a second stack cannot share this process's chdb.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { createSessionCodec } from '@llm/web-session';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Status = { state: string; login?: unknown; error?: string };
/** The fake runner's state, reset before each test. */
const runner = {
  mode: 'ok' as 'ok' | 'down' | 'garbage',
  startDelayMs: 0,
  starts: 0,
  cancels: [] as string[],
  statusCalls: 0,
  attempts: new Map<string, Status>(),
};

let server: http.Server;
let t: TestApp;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    void (async () => {
      if (runner.mode === 'down') { req.socket.destroy(); return; }
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(runner.mode === 'garbage' ? '<html>' : body === undefined ? '' : JSON.stringify(body));
      };
      const m = /^\/v1\/subscription-logins(?:\/([^/]+))?$/.exec(req.url ?? '');
      if (!m) { send(404, { detail: 'no route' }); return; }
      const id = m[1] ? decodeURIComponent(m[1]) : undefined;
      if (req.method === 'POST' && !id) {
        runner.starts++;
        const attemptId = `att-${randomBytes(6).toString('hex')}`;
        runner.attempts.set(attemptId, { state: 'pending' });
        if (runner.startDelayMs) await new Promise((r) => setTimeout(r, runner.startDelayMs));
        send(201, { id: attemptId, expires_at: new Date(Date.now() + 600_000).toISOString(), user_code: 'WXYZ-1234', verification_uri: 'https://auth.example.com/codex/device', poll_after_ms: 500 });
        return;
      }
      if (req.method === 'GET' && id) {
        runner.statusCalls++;
        const s = runner.attempts.get(id);
        if (s) send(200, s); else send(404, { detail: 'unknown attempt' });
        return;
      }
      if (req.method === 'DELETE' && id) {
        runner.cancels.push(id);
        runner.attempts.delete(id);
        res.writeHead(204).end();
        return;
      }
      send(405, {});
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t = await startTestApp({ AGENT_RUNNER_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(async () => { await t?.stop(); await new Promise((r) => server?.close(r)); });
beforeEach(() => { Object.assign(runner, { mode: 'ok', startDelayMs: 0, starts: 0, cancels: [], statusCalls: 0 }); runner.attempts.clear(); });

async function call(method: string, path: string, auth: Record<string, string>, body?: unknown, base = t.baseUrl): Promise<{ status: number; body: any }> {
  const r = await fetch(`${base}${path}`, { method, headers: { ...auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
const access = (account: string): string => `${b64({ alg: 'RS256' })}.${b64({ 'https://api.openai.com/auth': { chatgpt_account_id: account } })}.c2ln`;
const login = (over: Record<string, unknown> = {}) => ({ access: access('acct-1'), refresh: `rt-${randomBytes(12).toString('hex')}`, expires: Date.now() + 3_600_000, ...over });

/** A fresh project (one ChatGPT connection per project) with its subscription secret. */
async function connection(): Promise<{ acc: TestAccount; id: string; base: string }> {
  const acc = await createAccount(t.baseUrl, t.adminToken);
  const s = await call('POST', '/secrets/', acc.auth, { header: { name: 'ChatGPT' }, secret: { kind: 'subscription_provider', data: { provider: 'chatgpt' } } });
  expect(s.status).toBe(200);
  return { acc, id: s.body.id, base: `/secrets/${s.body.id}` };
}

/** A device sign-in through to a stored login. */
async function signIn(c: { acc: TestAccount; base: string }, l = login()): Promise<void> {
  const started = await call('POST', `${c.base}/login-attempts`, c.acc.auth);
  runner.attempts.set(started.body.attempt_id, { state: 'succeeded', login: l });
  expect((await call('GET', `${c.base}/login-attempts/${started.body.attempt_id}`, c.acc.auth)).body.state).toBe('succeeded');
}

const nulls = { user_code: null, verification_uri: null, expires_at: null, poll_after_ms: null, error: null };

describe('subscription login: the device sign-in', () => {
  it('when a subscription is created, then its login fields are the server\'s: initial values, client values refused, kept by PUT', async () => {
    const c = await connection();
    const got = await call('GET', c.base, c.acc.auth);
    expect(got.body.data).toEqual({ provider: 'chatgpt', login_version: 0, login_generation: 0, login_state: 'pending_login' });
    expect(got.body.value_status).toEqual({ configured: false });
    const other = await createAccount(t.baseUrl, t.adminToken);
    const withLogin = await call('POST', '/secrets/', other.auth, { header: { name: 'x' }, secret: { kind: 'subscription_provider', data: { provider: 'chatgpt', login_state: 'ready' } } });
    expect(withLogin).toMatchObject({ status: 400 });
    expect((await call('PUT', c.base, c.acc.auth, { secret: { kind: 'subscription_provider', data: { provider: 'chatgpt', login: login() } } })).status).toBe(400);
    await signIn(c);
    const renamed = await call('PUT', c.base, c.acc.auth, { header: { name: 'Mine' }, secret: { kind: 'subscription_provider', data: { provider: 'chatgpt', harnesses: ['pi_core'] } } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toEqual({ provider: 'chatgpt', harnesses: ['pi_core'], login_version: 1, login_generation: 1, login_state: 'ready' });
    expect(renamed.body.value_status).toEqual({ configured: true });
    // Still usable by the runner: the login itself survived the PUT.
    expect((await call('POST', `${c.base}/subscription-login/failure`, c.acc.auth, { version: 0, generation: 1, reason: 'x' })).body).toMatchObject({ stale: true, login: { refresh: expect.any(String) } });
  });

  it('when a sign-in starts, then the runner\'s attempt is stored and shown; a second start returns it without asking the runner', async () => {
    const c = await connection();
    const first = await call('POST', `${c.base}/login-attempts`, c.acc.auth);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      attempt_id: expect.stringMatching(/^att-/), state: 'pending', user_code: 'WXYZ-1234', verification_uri: 'https://auth.example.com/codex/device',
      expires_at: expect.any(String), poll_after_ms: 2000, error: null,
    });
    const second = await call('POST', `${c.base}/login-attempts/`, c.acc.auth);
    expect(second.body).toEqual(first.body);
    expect(runner.starts).toBe(1);
    const polled = await call('GET', `${c.base}/login-attempts/${first.body.attempt_id}`, c.acc.auth);
    expect(polled).toEqual({ status: 200, body: first.body });
    // The attempt is a credential of the sign-in: never in the secret's answers.
    expect(JSON.stringify((await call('GET', c.base, c.acc.auth)).body)).not.toContain(first.body.attempt_id);
  });

  it('when the runner reports success with a usable login, then it is stored (ready, version and generation 1) and never returned', async () => {
    const c = await connection();
    const started = await call('POST', `${c.base}/login-attempts`, c.acc.auth);
    const l = login();
    runner.attempts.set(started.body.attempt_id, { state: 'succeeded', login: l });
    const done = await call('GET', `${c.base}/login-attempts/${started.body.attempt_id}`, c.acc.auth);
    expect(done).toEqual({ status: 200, body: { attempt_id: started.body.attempt_id, state: 'succeeded', ...nulls } });
    const got = await call('GET', c.base, c.acc.auth);
    expect(got.body.data).toEqual({ provider: 'chatgpt', login_version: 1, login_generation: 1, login_state: 'ready' });
    const everywhere = JSON.stringify([got.body, (await call('GET', '/secrets/', c.acc.auth)).body, (await call('GET', `/vault/v1/secrets/${c.id}`, c.acc.auth)).body]);
    expect(everywhere).not.toContain(l.refresh);
    expect(everywhere).not.toContain(l.access);
    // The attempt is over: it is not the stored one any more.
    expect(await call('GET', `${c.base}/login-attempts/${started.body.attempt_id}`, c.acc.auth)).toEqual({ status: 404, body: { detail: 'Login attempt not found. Start a new sign-in.' } });
  });

  it('when the runner\'s login is unusable, or it does not know the attempt, or the attempt failed, then failed and cleared', async () => {
    const c = await connection();
    const a1 = (await call('POST', `${c.base}/login-attempts`, c.acc.auth)).body.attempt_id;
    runner.attempts.set(a1, { state: 'succeeded', login: login({ expires: true }) });
    expect((await call('GET', `${c.base}/login-attempts/${a1}`, c.acc.auth)).body).toEqual({ attempt_id: a1, state: 'failed', ...nulls, error: 'invalid_login' });
    expect((await call('GET', c.base, c.acc.auth)).body.data.login_state).toBe('pending_login');
    const a2 = (await call('POST', `${c.base}/login-attempts`, c.acc.auth)).body.attempt_id;
    expect(a2).not.toBe(a1);
    runner.attempts.delete(a2);
    expect((await call('GET', `${c.base}/login-attempts/${a2}`, c.acc.auth)).body).toEqual({ attempt_id: a2, state: 'failed', ...nulls, error: 'attempt not found; try again' });
    const a3 = (await call('POST', `${c.base}/login-attempts`, c.acc.auth)).body.attempt_id;
    runner.attempts.set(a3, { state: 'expired', error: 'code expired' });
    expect((await call('GET', `${c.base}/login-attempts/${a3}`, c.acc.auth)).body).toEqual({ attempt_id: a3, state: 'expired', ...nulls, error: 'code expired' });
    expect((await call('GET', `${c.base}/login-attempts/${a3}`, c.acc.auth)).status).toBe(404);
  });

  it('when a sign-in is cancelled, then the runner is told and the attempt is gone', async () => {
    const c = await connection();
    const a = (await call('POST', `${c.base}/login-attempts`, c.acc.auth)).body.attempt_id;
    expect((await call('POST', `${c.base}/login-attempts/other/cancel`, c.acc.auth)).status).toBe(404);
    expect(await call('POST', `${c.base}/login-attempts/${a}/cancel`, c.acc.auth)).toEqual({ status: 200, body: { attempt_id: a, state: 'cancelled', ...nulls } });
    expect(runner.cancels).toEqual([a]);
    expect((await call('GET', `${c.base}/login-attempts/${a}`, c.acc.auth)).status).toBe(404);
  });

  it('when two sign-ins start at once, then one attempt wins: both answer it, and the runner cancels the other', async () => {
    const c = await connection();
    runner.startDelayMs = 300;
    const [x, y] = await Promise.all([call('POST', `${c.base}/login-attempts`, c.acc.auth), call('POST', `${c.base}/login-attempts`, c.acc.auth)]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect(x.body.attempt_id).toBe(y.body.attempt_id);
    expect(runner.starts).toBe(2);
    expect(runner.cancels).toHaveLength(1);
    expect(runner.cancels[0]).not.toBe(x.body.attempt_id);
  });
});

describe('subscription login: the runner\'s push and failure report', () => {
  it('when the runner pushes, then §7\'s decision order answers: no_login, accept, stale, same_login, wrong_generation, other_account', async () => {
    const c = await connection();
    const push = (body: unknown) => call('POST', `${c.base}/subscription-login`, c.acc.auth, body);
    expect((await push({ login: login(), version: 0, generation: 0 })).body).toEqual({ version: 0, generation: 0, updated: false, stale: false, reason: 'no_login' });
    const first = login();
    await signIn(c, first);
    const newer = login({ expires: first.expires + 60_000 });
    expect(await push({ login: newer, version: 1, generation: 1 })).toEqual({ status: 200, body: { version: 2, generation: 1, updated: true, stale: false } });
    expect((await call('GET', c.base, c.acc.auth)).body.data).toMatchObject({ login_version: 2, login_generation: 1, login_state: 'ready' });
    const stale = await push({ login: login(), version: 0, generation: 0 });
    expect(stale.body).toEqual({ version: 2, generation: 1, updated: false, stale: true, login: newer });
    expect((await push({ login: { ...newer, expires: newer.expires + 1 }, version: 2, generation: 1 })).body).toMatchObject({ updated: false, reason: 'same_login' });
    expect((await push({ login: login(), version: 2, generation: 7 })).body).toMatchObject({ updated: false, reason: 'wrong_generation' });
    expect((await push({ login: login({ access: access('acct-2') }), version: 2, generation: 1 })).body).toMatchObject({ reason: 'other_account' });
    expect((await push({ login: login({ refresh: ' ' }), version: 2, generation: 1 })).body).toMatchObject({ reason: 'invalid_login' });
    expect((await push({ login: login({ expires: 1 }), version: 2, generation: 1 })).body).toMatchObject({ reason: 'invalid_login' });
    expect((await push({ login: login(), version: 2, generation: 1, extra: 1 })).status).toBe(422);
    expect((await push({ login: {}, version: 2, generation: 1 })).status).toBe(422);
  });

  it('when the runner reports a failure, then the connection needs a login; a report about an older login is stale', async () => {
    const c = await connection();
    const l = login();
    await signIn(c, l);
    const fail = (body: unknown) => call('POST', `${c.base}/subscription-login/failure`, c.acc.auth, body);
    expect((await fail({ version: 0, generation: 1, reason: 'old' })).body).toEqual({ stale: true, version: 1, generation: 1, login: l });
    expect(await fail({ version: 1, generation: 1, reason: 'refresh_token_reused' })).toEqual({ status: 200, body: { stale: false, version: 1, generation: 1 } });
    expect((await call('GET', c.base, c.acc.auth)).body.data).toEqual({ provider: 'chatgpt', login_version: 1, login_generation: 1, login_state: 'needs_login', login_error: 'refresh_token_reused' });
    expect((await fail({ version: 1, generation: 1, reason: 'r'.repeat(201) })).status).toBe(422);
    expect((await fail({ version: 1, generation: 1, reason: 'x', login: {} })).status).toBe(422);
    // A new device login makes it ready again, under a new generation.
    await signIn(c);
    expect((await call('GET', c.base, c.acc.auth)).body.data).toEqual({ provider: 'chatgpt', login_version: 2, login_generation: 2, login_state: 'ready' });
  });
});

describe('subscription login: errors', () => {
  it('when the secret is missing, another kind, or its id is not a UUID, then 404 / 422', async () => {
    const c = await connection();
    const key = await call('POST', '/secrets/', c.acc.auth, { header: {}, secret: { kind: 'provider_key', data: { kind: 'openai', provider: { key: 'sk-x' } } } });
    const notFound = { status: 404, body: { detail: 'Subscription connection not found.' } };
    expect(await call('POST', `/secrets/${key.body.id}/login-attempts`, c.acc.auth)).toEqual(notFound);
    expect(await call('POST', `/secrets/${key.body.id}/subscription-login`, c.acc.auth, { login: login(), version: 0, generation: 0 })).toEqual(notFound);
    expect(await call('POST', `/secrets/00000000-0000-4000-8000-000000000000/subscription-login/failure`, c.acc.auth, { version: 0, generation: 0, reason: 'x' })).toEqual(notFound);
    expect((await call('POST', '/secrets/not-a-uuid/login-attempts', c.acc.auth)).status).toBe(422);
    expect((await call('GET', '/secrets/not-a-uuid/login-attempts/x', c.acc.auth)).status).toBe(422);
    // Another project's connection is not found either.
    const other = await createAccount(t.baseUrl, t.adminToken);
    expect(await call('POST', `${c.base}/login-attempts`, other.auth)).toEqual(notFound);
    expect(runner.starts).toBe(0);
  });

  it('when the runner is down or answers nonsense, then 502', async () => {
    const c = await connection();
    runner.mode = 'down';
    expect((await call('POST', `${c.base}/login-attempts`, c.acc.auth)).status).toBe(502);
    runner.mode = 'garbage';
    const r = await call('POST', `${c.base}/login-attempts`, c.acc.auth);
    expect(r.status).toBe(502);
    expect(r.body.detail).toMatch(/agent runner/);
    runner.mode = 'ok';
    const a = (await call('POST', `${c.base}/login-attempts`, c.acc.auth)).body.attempt_id;
    runner.mode = 'down';
    expect((await call('GET', `${c.base}/login-attempts/${a}`, c.acc.auth)).status).toBe(502);
    expect((await call('POST', `${c.base}/login-attempts/${a}/cancel`, c.acc.auth)).status).toBe(502);
  });

  it('when the caller is a viewer, then 403 on the browser and the runner routes', async () => {
    const c = await connection();
    const v = await createAccount(t.baseUrl, t.adminToken);
    const setRole = await fetch(`${t.baseUrl}/admin/simple/accounts/organizations/memberships/`, {
      method: 'POST', headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ organization_id: c.acc.organizationId, user: { id: v.userId }, role: 'viewer' }),
    });
    expect(setRole.status).toBe(200);
    const sessions = createSessionCodec({ secrets: t.secrets.SESSION_SECRETS.split(','), secure: false });
    const cookie = { Cookie: `${sessions.cookieName}=${sessions.issue({ user_id: v.userId, email: v.email, identities: ['email:otp'] }).token}` };
    const q = `?project_id=${c.acc.projectId}`;
    const forbidden = { status: 403, body: { detail: 'You do not have access to perform this action. Please contact your organization admin.' } };
    expect(await call('POST', `${c.base}/login-attempts${q}`, cookie)).toEqual(forbidden);
    expect(await call('POST', `${c.base}/subscription-login${q}`, cookie, { login: login(), version: 0, generation: 0 })).toEqual(forbidden);
    expect(await call('POST', `${c.base}/subscription-login/failure${q}`, cookie, { version: 0, generation: 0, reason: 'x' })).toEqual(forbidden);
    expect(runner.starts).toBe(0);
  });
});
