// POST /providers/probe (and /vault/v1/providers/probe) end to end (reference §8): a loopback HTTP
// server started here plays an OpenAI-style model list, a public catalog and a custom
// OpenAI-compatible endpoint; the probe reaches it over real sockets through the real outbound
// guard, allowed by test-only configuration (OUTBOUND_ALLOW_HOSTS, PROVIDER_PROBE_BASE_URLS).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { createSessionCodec } from '@llm/web-session';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const GOOD_KEY = `sk-good-${randomBytes(16).toString('hex')}`;
const BAD_KEY = `sk-bad-${randomBytes(16).toString('hex')}`;
const KEYS = [GOOD_KEY, BAD_KEY];
const SLOW_MS = 4_000;

interface Seen { method: string; url: string; headers: http.IncomingHttpHeaders }
const seen: Seen[] = [];
let provider: http.Server;
let base: string;
let t: TestApp;
let a: TestAccount;

const models = (ids: string[]) => JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) });

beforeAll(async () => {
  provider = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const send = (status: number, body: string) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(body); };
    const bearer = req.headers.authorization === `Bearer ${GOOD_KEY}`;
    const path = (req.url ?? '').split('?')[0];
    switch (path) {
      case '/v1/models': case '/custom/v1/models': return bearer ? send(200, models(['gpt-4o', 'gpt-4o-mini'])) : send(401, '{"error":{"message":"Incorrect API key provided"}}');
      case '/forbidden/v1/models': return send(403, '{"error":"forbidden"}');
      case '/broken/v1/models': return send(500, '{"error":"boom"}');
      case '/moved/v1/models': res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }); return res.end();
      case '/public/models': return req.headers.authorization === undefined ? send(200, models(['meta-llama/Llama-3-70b'])) : send(400, '{"error":"unexpected key"}');
      case '/slow/v1/models': { const timer = setTimeout(() => send(200, models(['late'])), SLOW_MS); res.on('close', () => clearTimeout(timer)); return; }
      default: return send(404, '{"error":"not found"}');
    }
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  t = await startTestApp({
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true',
    PROVIDER_PROBE_BASE_URLS: JSON.stringify({ openai: `${base}/v1`, deepinfra: `${base}/public` }),
    PROVIDER_PROBE_TIMEOUT_MS: '1500',
    // Sessions signed in by e-mail pass the organization policy (the permission test uses one).
    AUTH_EMAIL_METHOD: 'otp',
  });
  a = await createAccount(t.baseUrl, t.adminToken);
});
afterAll(async () => { await t?.stop(); provider?.closeAllConnections(); provider?.close(); });

/** Every answer is checked for the keys: no status and no path may echo a credential. */
async function probe(body: unknown, opts: { path?: string; auth?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${opts.path ?? '/providers/probe'}`, {
    method: 'POST', headers: { ...(opts.auth ?? a.auth), 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.text();
  for (const k of KEYS) expect(text).not.toContain(k);
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

const fetched = (ms: string) => expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d${ms}Z$`));

describe('provider probe', () => {
  it('when an OpenAI key is valid, then 200 valid + fetched with the model ids, after exactly one GET with the Bearer key', async () => {
    const before = seen.length;
    const r = await probe({ kind: 'openai', provider: { key: GOOD_KEY } });
    expect(r).toEqual({
      status: 200,
      body: { credential: { status: 'valid', message: 'OpenAI accepted the key.' }, discovery: { status: 'fetched', models: ['gpt-4o', 'gpt-4o-mini'] }, fetched_at: fetched('\\.\\d{3}') },
    });
    expect(seen.slice(before)).toHaveLength(1);
    expect(seen[before]).toMatchObject({ method: 'GET', url: '/v1/models', headers: { authorization: `Bearer ${GOOD_KEY}` } });
  });

  it('when the provider answers 401 or 403, then still 200 with invalid + failed, and nothing is retried', async () => {
    const before = seen.length;
    expect(await probe({ kind: 'openai', provider: { key: BAD_KEY } })).toMatchObject({
      status: 200, body: { credential: { status: 'invalid', message: 'OpenAI rejected the key.' }, discovery: { status: 'failed', models: [] } },
    });
    expect(await probe({ kind: 'openai', provider: { key: GOOD_KEY, url: `${base}/forbidden/v1` } })).toMatchObject({
      status: 200, body: { credential: { status: 'invalid' }, discovery: { status: 'failed' } },
    });
    expect(seen.length - before).toBe(2);
  });

  it('when the provider answers 500 or a redirect, then unknown + failed, and the redirect is not followed', async () => {
    expect(await probe({ kind: 'openai', provider: { key: GOOD_KEY, url: `${base}/broken/v1` } })).toMatchObject({
      status: 200, body: { credential: { status: 'unknown', message: 'OpenAI answered HTTP 500.' }, discovery: { status: 'failed', models: [] } },
    });
    const before = seen.length;
    expect(await probe({ kind: 'openai', provider: { key: GOOD_KEY, url: `${base}/moved/v1` } })).toMatchObject({
      status: 200, body: { credential: { status: 'unknown' }, discovery: { status: 'failed' } },
    });
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/moved/v1/models']);
  });

  it('when the provider does not answer within the limit, then unknown "Could not reach … in time." + failed', async () => {
    // /slow answers (with a model) only after SLOW_MS: an answer without that model and with this
    // message is the probe's own time limit at work, not the provider's late answer.
    const r = await probe({ kind: 'openai', provider: { key: GOOD_KEY, url: `${base}/slow/v1` } });
    expect(r).toMatchObject({ status: 200, body: { credential: { status: 'unknown', message: 'Could not reach OpenAI in time.' }, discovery: { status: 'failed', models: [] } } });
  });

  it('when the kind is URL-based (custom), then the caller\'s endpoint is read; without a base URL it is 422', async () => {
    const before = seen.length;
    expect(await probe({ kind: 'custom', provider: { key: GOOD_KEY, url: `${base}/custom/v1` } })).toMatchObject({
      status: 200, body: { credential: { status: 'valid' }, discovery: { status: 'fetched', models: ['gpt-4o', 'gpt-4o-mini'] } },
    });
    expect(await probe({ kind: 'custom', provider: { key: BAD_KEY, url: `${base}/custom/v1/` } })).toMatchObject({ status: 200, body: { credential: { status: 'invalid' } } });
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/custom/v1/models', '/custom/v1/models']);
    for (const provider of [{ key: GOOD_KEY }, { key: GOOD_KEY, url: '' }]) {
      expect(await probe({ kind: 'custom', provider })).toEqual({ status: 422, body: { detail: 'This provider needs a base URL to test.' } });
    }
    expect(await probe({ kind: 'azure', provider: { key: GOOD_KEY } })).toEqual({ status: 422, body: { detail: 'This provider needs a base URL to test.' } });
  });

  it('when the kind is a public catalog, then the list is fetched without the key and the key stays unknown', async () => {
    const before = seen.length;
    expect(await probe({ kind: 'deepinfra', provider: { key: GOOD_KEY } })).toMatchObject({
      status: 200, body: { credential: { status: 'unknown' }, discovery: { status: 'fetched', models: ['meta-llama/Llama-3-70b'] } },
    });
    expect(seen[before]!.headers.authorization).toBeUndefined();
  });

  it('when the kind cannot be tested, then unknown + unsupported and nothing is sent', async () => {
    const before = seen.length;
    for (const kind of ['minimax', 'anyscale', 'alephalpha', 'sagemaker', 'bedrock', 'vertex_ai']) {
      expect(await probe({ kind, provider: { key: GOOD_KEY, url: `${base}/v1` } })).toMatchObject({
        status: 200, body: { credential: { status: 'unknown' }, discovery: { status: 'unsupported', models: [] }, fetched_at: expect.any(String) },
      });
    }
    expect(seen.length).toBe(before);
  });

  it('when the kind is unknown, then 422 naming it and the supported kinds; aliases are accepted', async () => {
    const before = seen.length;
    expect(await probe({ kind: 'llamafarm', provider: { key: GOOD_KEY } })).toEqual({
      status: 422,
      body: { detail: "'llamafarm' is not a provider Agenta can test. Supported: alephalpha, anthropic, anyscale, azure, bedrock, cohere, custom, deepinfra, gemini, groq, minimax, mistral, openai, openrouter, perplexityai, sagemaker, together_ai, vertex_ai." },
    });
    expect(seen.length).toBe(before);
    // mistralai → mistral, pointed at the loopback list by the request's own URL.
    expect(await probe({ kind: 'mistralai', provider: { key: GOOD_KEY, url: `${base}/v1` } })).toMatchObject({ status: 200, body: { credential: { status: 'valid', message: 'Mistral AI accepted the key.' } } });
  });

  it('when the target is private, loopback by another name, or not http(s), then 422 and nothing is sent', async () => {
    const before = seen.length;
    const port = new URL(base).port;
    for (const url of ['http://10.0.0.1/v1', 'http://169.254.169.254/latest', `http://localhost:${port}/v1`, `http://127.0.0.2:${port}/v1`, `http://[::1]:${port}/v1`, 'ftp://example.com/v1', `http://user:pw@127.0.0.1:${port}/v1`]) {
      const r = await probe({ kind: 'custom', provider: { key: GOOD_KEY, url } });
      expect(r.status, url).toBe(422);
      expect(typeof r.body.detail, url).toBe('string');
    }
    expect(seen.length).toBe(before);
  });

  it('when the body is invalid, then 422 in the validation shape without any input echoed', async () => {
    for (const body of [
      { kind: 'openai', provider: { key: `${GOOD_KEY}\u0000` } },
      { kind: 'openai', provider: { key: `${BAD_KEY}\ud800` } },
      { kind: 'openai', provider: { key: GOOD_KEY.repeat(200) } },
      { kind: 'openai', provider: { key: GOOD_KEY, extras: { api_key: `${GOOD_KEY}\u0000` } } },
      { kind: 42, provider: { key: GOOD_KEY } },
      { provider: { key: GOOD_KEY } },
      `{"kind":"openai","provider":{"key":"${GOOD_KEY}"`,
    ]) {
      const r = await probe(body);
      expect(r.status).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: expect.arrayContaining(['body']), msg: expect.any(String), type: expect.any(String) });
      expect(r.body.detail[0].input).toBeUndefined();
    }
  });

  it('when a kind that needs a key is given none, then 200 invalid "No key was given." + failed, and nothing is sent', async () => {
    const before = seen.length;
    for (const provider of [{}, { key: null }, { key: '' }, { key: '', url: `${base}/v1` }]) {
      expect(await probe({ kind: 'openai', provider })).toEqual({
        status: 200, body: { credential: { status: 'invalid', message: 'No key was given.' }, discovery: { status: 'failed', models: [] }, fetched_at: fetched('\\.\\d{3}') },
      });
    }
    expect(seen.length).toBe(before);
  });

  it('when the key holds CR/LF, a space or a character beyond ASCII, then 422 naming the rule, nothing sent (never a 500)', async () => {
    const before = seen.length;
    for (const key of [`${GOOD_KEY}\r\nX-Injected: 1`, `${GOOD_KEY}\n`, `${BAD_KEY} `, `${GOOD_KEY}\u2603`, `${GOOD_KEY}é`, `${BAD_KEY}\u{1f511}`]) {
      for (const url of [undefined, `${base}/custom/v1`]) {
        const r = await probe({ kind: url === undefined ? 'openai' : 'custom', provider: { key, url } });
        expect(r, JSON.stringify(key)).toEqual({
          status: 422, body: { detail: [{ loc: ['body', 'provider', 'key'], msg: 'key must contain only printable ASCII characters without spaces', type: 'invalid_format' }] },
        });
      }
    }
    expect(seen.length).toBe(before);
  });

  it('when the alias path is used, then it answers the same', async () => {
    for (const path of ['/vault/v1/providers/probe', '/vault/v1/providers/probe/', '/api/providers/probe']) {
      expect(await probe({ kind: 'openai', provider: { key: GOOD_KEY } }, { path })).toMatchObject({ status: 200, body: { credential: { status: 'valid' }, discovery: { status: 'fetched' } } });
    }
  });

  it('when the caller is not authenticated or only a viewer, then 401 / 403; an editor may probe', async () => {
    expect((await probe({ kind: 'openai', provider: { key: GOOD_KEY } }, { auth: {} })).status).toBe(401);
    expect((await probe({ kind: 'openai', provider: { key: GOOD_KEY } }, { auth: { Authorization: `ApiKey nope.${'0'.repeat(64)}` } })).status).toBe(401);
    // A member of a's organization, signed in by e-mail, acting in a's project.
    const v = await createAccount(t.baseUrl, t.adminToken);
    const admin = { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' };
    const setRole = (role: string) => fetch(`${t.baseUrl}/admin/simple/accounts/organizations/memberships/`, {
      method: 'POST', headers: admin, body: JSON.stringify({ organization_id: a.organizationId, user: { id: v.userId }, role }),
    });
    expect((await setRole('viewer')).status).toBe(200);
    const sessions = createSessionCodec({ secrets: t.secrets.SESSION_SECRETS.split(','), secure: false });
    const issued = sessions.issue({ user_id: v.userId, email: v.email, identities: ['email:otp'] });
    const cookie = { Cookie: `${sessions.cookieName}=${issued.token}` };
    const path = `/providers/probe?project_id=${a.projectId}`;
    expect(await probe({ kind: 'openai', provider: { key: GOOD_KEY } }, { path, auth: cookie })).toEqual({
      status: 403, body: { detail: 'You do not have access to perform this action. Please contact your organization admin.' },
    });
    expect((await setRole('editor')).status).toBe(200);
    expect(await probe({ kind: 'openai', provider: { key: GOOD_KEY } }, { path, auth: cookie })).toMatchObject({ status: 200, body: { credential: { status: 'valid' } } });
  });
});
