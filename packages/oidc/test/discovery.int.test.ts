import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOidcProvider, type TestOidcProvider } from '@llm/testing/oidc-provider';
import { discoverProvider, discoveryUrl, parseIssuerUrl, type FetchLike } from '../src/index.ts';

let idp: TestOidcProvider;
let server: http.Server;
let origin: string;

// Discovery documents as misconfigured providers serve them, one per issuer path.
function documents(issuerBase: string): Record<string, { status?: number; type?: string; body: string; headers?: Record<string, string> }> {
  const doc = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({
    issuer: `${issuerBase}/${name}`,
    authorization_endpoint: `${issuerBase}/${name}/auth`,
    token_endpoint: `${issuerBase}/${name}/token`,
    userinfo_endpoint: `${issuerBase}/${name}/me`,
    jwks_uri: `${issuerBase}/${name}/jwks`,
    ...extra,
  });
  return {
    ok: { body: doc('ok') },
    'no-userinfo': { body: doc('no-userinfo', { userinfo_endpoint: undefined }) },
    'no-endpoints': { body: JSON.stringify({ issuer: `${issuerBase}/no-endpoints` }) },
    'empty-token': { body: doc('empty-token', { token_endpoint: '' }) },
    'not-json': { type: 'text/html', body: '<html>hello</html>' },
    'json-array': { body: '[1,2,3]' },
    missing: { status: 404, body: 'not found' },
    'server-error': { status: 500, body: '{}' },
    redirect: { status: 302, body: '', headers: { location: `${issuerBase}/ok/.well-known/openid-configuration` } },
    mismatch: { body: doc('mismatch', { issuer: 'https://evil.example' }) },
    'no-issuer': { body: doc('no-issuer', { issuer: undefined }) },
    'bad-endpoint': { body: doc('bad-endpoint', { token_endpoint: 'javascript:alert(1)' }) },
    huge: { body: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }) },
  };
}

beforeAll(async () => {
  idp = await startTestOidcProvider();
  server = http.createServer((req, res) => {
    const name = /^\/([a-z-]+)\/\.well-known\/openid-configuration$/.exec(req.url ?? '')?.[1] ?? '';
    const d = documents(origin)[name];
    if (!d) { res.writeHead(404).end(); return; }
    res.writeHead(d.status ?? 200, { 'content-type': d.type ?? 'application/json', ...d.headers });
    res.end(d.body);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await idp.close();
});

const discover = (name: string, opts: { fetch?: FetchLike } = {}) => discoverProvider(`${origin}/${name}`, { allowInsecure: true, ...opts });

describe('discoverProvider', () => {
  it('when the issuer is a real OpenID provider, then its metadata is returned', async () => {
    const r = await discoverProvider(idp.issuer, { allowInsecure: true });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({
      issuer: idp.issuer,
      authorization_endpoint: `${idp.issuer}/auth`,
      token_endpoint: `${idp.issuer}/token`,
      userinfo_endpoint: `${idp.issuer}/me`,
      jwks_uri: `${idp.issuer}/jwks`,
    });
    expect(r.value.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('when the configured issuer has a trailing slash, then it still matches', async () => {
    expect((await discoverProvider(`${idp.issuer}/`, { allowInsecure: true })).ok).toBe(true);
  });

  it('when the document is served, then it is fetched once through the injected fetch with manual redirects', async () => {
    const seen: { url: string; redirect: string }[] = [];
    const r = await discover('ok', { fetch: (url, init) => { seen.push({ url, redirect: init.redirect }); return fetch(url, init); } });
    expect(r.ok).toBe(true);
    expect(seen).toEqual([{ url: `${origin}/ok/.well-known/openid-configuration`, redirect: 'manual' }]);
  });

  it.each([
    ['no-userinfo', ['userinfo_endpoint']],
    ['no-endpoints', ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint']],
    ['empty-token', ['token_endpoint']],
  ])('when the document (%s) lacks required endpoints, then they are named', async (name, missing) => {
    const r = await discover(name);
    expect(r).toMatchObject({ ok: false, error: { kind: 'missing_endpoints', missing } });
  });

  it.each([
    ['not-json', 'not_json'],
    ['json-array', 'not_json'],
    ['missing', 'http_status'],
    ['server-error', 'http_status'],
    ['redirect', 'http_status'],
    ['mismatch', 'issuer_mismatch'],
    ['no-issuer', 'invalid_document'],
    ['bad-endpoint', 'invalid_document'],
    ['huge', 'too_large'],
  ])('when the document is %s, then discovery fails with %s', async (name, kind) => {
    const r = await discover(name);
    expect(r).toMatchObject({ ok: false, error: { kind } });
  });

  it('when the HTTP status is not 200, then it is reported', async () => {
    expect(await discover('missing')).toMatchObject({ ok: false, error: { kind: 'http_status', status: 404 } });
  });

  it('when nothing listens, or the injected fetch refuses, then the provider is unreachable', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await new Promise((r) => closed.once('listening', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect(await discoverProvider(`http://127.0.0.1:${port}`, { allowInsecure: true })).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    const guard: FetchLike = () => Promise.reject(new Error('target address 127.0.0.1 is not allowed'));
    expect(await discover('ok', { fetch: guard })).toMatchObject({ ok: false, error: { kind: 'unreachable', message: expect.stringContaining('not allowed') } });
  });

  it('when the provider does not answer in time, then discovery times out', async () => {
    const hanging: FetchLike = (_url, init) => new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    expect(await discoverProvider(`${origin}/ok`, { allowInsecure: true, timeoutMs: 50, fetch: hanging })).toMatchObject({ ok: false, error: { kind: 'unreachable', message: expect.stringContaining('timed out') } });
  });

  it.each([
    ['not a URL', 'issuer'],
    ['http without allowInsecure', 'http://idp.example'],
    ['credentials', 'https://user:pw@idp.example'],
    ['a query', 'https://idp.example/?tenant=1'],
    ['a fragment', 'https://idp.example/#x'],
    ['another scheme', 'ftp://idp.example'],
  ])('when the issuer URL has %s, then nothing is fetched', async (_label, issuer) => {
    let fetched = false;
    const r = await discoverProvider(issuer, { fetch: () => { fetched = true; return Promise.reject(new Error('no')); } });
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_issuer_url' } });
    expect(fetched).toBe(false);
  });

  it('when the issuer has a path, then the well-known suffix is appended to it', () => {
    const u = parseIssuerUrl('https://login.example.com/tenant/v2.0/');
    expect(u.ok && discoveryUrl(u.value)).toBe('https://login.example.com/tenant/v2.0/.well-known/openid-configuration');
  });
});
