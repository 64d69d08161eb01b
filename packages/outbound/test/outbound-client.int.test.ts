import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOutboundClient, type OutboundClientOptions } from '../src/outbound-client.ts';
import { OutboundError, type OutboundErrorCode } from '../src/outbound-error.ts';
import { startServer, type LoopbackServer } from './support/loopback-server.ts';

async function failure(work: Promise<unknown>): Promise<OutboundError> {
  try {
    await work;
  } catch (err) {
    if (err instanceof OutboundError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}
const codeOf = async (work: Promise<unknown>): Promise<OutboundErrorCode> => (await failure(work)).code;

let api: LoopbackServer; // the allowed server
let other: LoopbackServer; // a loopback server nothing allows
let stalled: LoopbackServer;
const pending: Array<() => void> = [];

beforeAll(async () => {
  other = await startServer((_req, res) => res.end('secret internal data'));
  api = await startServer((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/json':
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ issuer: 'https://idp.test', token_endpoint: 'https://idp.test/token' }));
        return;
      case '/not-json':
        res.end('<html>');
        return;
      case '/fail':
        res.statusCode = 500;
        res.end('{}');
        return;
      case '/echo':
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
        return;
      case '/no-content':
        res.statusCode = 204;
        res.end();
        return;
      case '/bytes': {
        const n = Number(url.searchParams.get('n'));
        if (url.searchParams.get('chunked')) {
          // No content-length: the cap must hold while streaming.
          for (let i = 0; i < n; i += 512) res.write(Buffer.alloc(Math.min(512, n - i), 97));
          res.end();
        } else res.end(Buffer.alloc(n, 97));
        return;
      }
      case '/stall-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
        pending.push(() => res.end());
        return;
      case '/redirect':
        res.statusCode = Number(url.searchParams.get('status') ?? 302);
        res.setHeader('location', url.searchParams.get('to') ?? '/json');
        res.end();
        return;
      default:
        res.statusCode = 404;
        res.end();
    }
  });
  stalled = await startServer((_req, res) => pending.push(() => res.end()));
});

afterAll(async () => {
  for (const release of pending) release();
  await Promise.all([api.close(), other.close(), stalled.close()]);
});

const client = (opts: OutboundClientOptions = {}) =>
  createOutboundClient({ allowInsecure: true, allowPrivateHosts: [`127.0.0.1:${api.port}`, `127.0.0.1:${stalled.port}`], ...opts });

describe('the guard, by default', () => {
  const strict = () => createOutboundClient({ allowInsecure: true });

  it('when the target is a loopback server, then the call is refused and never reaches it', async () => {
    const before = other.seen.length;
    const err = await failure(strict().request(`${other.origin}/`));
    expect(err).toMatchObject({ code: 'blocked_target', kind: 'invalid', address: '127.0.0.1' });
    expect(other.seen.length).toBe(before);
  });

  it('when the host is a localhost name, then it is refused before resolution', async () => {
    let resolved = 0;
    const c = createOutboundClient({ allowInsecure: true, resolve: async () => { resolved++; return ['93.184.216.34']; } });
    expect(await codeOf(c.request(`http://localhost:${other.port}/`))).toBe('blocked_target');
    expect(await codeOf(c.request('http://api.localhost/'))).toBe('blocked_target');
    expect(resolved).toBe(0);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://[::]/',
    'http://0.0.0.0/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://10.0.0.1/',
    'http://192.168.0.1/',
    'http://224.0.0.1/',
  ])('when the URL is %s, then it is a blocked target', async (url) => {
    expect(await codeOf(strict().request(url))).toBe('blocked_target');
  });

  it('when a name resolves to a public and a private address, then it is refused (every answer is checked)', async () => {
    const c = createOutboundClient({ resolve: async () => ['93.184.216.34', '10.0.0.7'] });
    const err = await failure(c.request('https://mixed.example/'));
    expect(err).toMatchObject({ code: 'blocked_target', address: '10.0.0.7' });
    // The message reaches API clients: it must not reveal what internal DNS answered.
    expect(err.message).not.toContain('10.0.0.7');
  });

  it('when a name resolves to IPv6 loopback or an IPv4-mapped private address, then it is refused', async () => {
    for (const answer of ['::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', 'fe80::1']) {
      const c = createOutboundClient({ resolve: async () => [answer] });
      expect(await codeOf(c.request('https://v6.example/')), answer).toBe('blocked_target');
    }
  });

  it('when resolution fails, then it is a transport error', async () => {
    const c = createOutboundClient({ resolve: async () => { throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' }); } });
    expect(await failure(c.request('https://missing.example/'))).toMatchObject({ code: 'transport', retryable: true });
  });

  it('when the URL is malformed, uses another scheme or carries credentials, then it is a bad_url', async () => {
    const c = createOutboundClient();
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'https://user:pw@example.com/', 'http://example.com/', 'no url']) {
      expect(await codeOf(c.request(url)), url).toBe('bad_url');
    }
  });
});

describe('explicit allowances', () => {
  it('when the loopback address and port are listed, then the call goes through', async () => {
    const res = await client().request(`${api.origin}/json`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toMatchObject({ issuer: 'https://idp.test' });
    expect(res.url).toBe(`${api.origin}/json`);
  });

  it('when only another port is listed, then the call is still refused', async () => {
    expect(await codeOf(client().request(`${other.origin}/`))).toBe('blocked_target');
  });

  it('when the name localhost is listed, then it is reachable by name', async () => {
    const c = createOutboundClient({ allowInsecure: true, allowPrivateHosts: ['localhost'] });
    const res = await c.request(`http://localhost:${api.port}/echo`);
    expect(JSON.parse(res.body.toString()).headers.host).toBe(`localhost:${api.port}`);
  });

  it('when a name resolves to a listed address, then the connection uses the checked answer (resolved once, no second lookup)', async () => {
    const calls: string[] = [];
    const c = client({ resolve: async (h) => { calls.push(h); return ['127.0.0.1']; } });
    // `pinned.example.test` exists nowhere else: only the vetted answer can have been used.
    const res = await c.request(`http://pinned.example.test:${api.port}/echo`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).headers.host).toBe(`pinned.example.test:${api.port}`);
    expect(calls).toEqual(['pinned.example.test']);
  });

  it('when an allowed name answers over TLS, then the pinned connection still verifies the certificate for that name', async () => {
    const tls = { key: readFileSync(new URL('./fixtures/test-tls.key', import.meta.url)), cert: readFileSync(new URL('./fixtures/test-tls.crt', import.meta.url)) };
    const secure = await startServer((_req, res) => res.end('over tls'), tls);
    try {
      const opts = { allowPrivateHosts: [`127.0.0.1:${secure.port}`], resolve: async () => ['127.0.0.1'], ca: tls.cert };
      const res = await createOutboundClient(opts).request(`https://api.example.test:${secure.port}/`);
      expect(res.body.toString()).toBe('over tls');
      // The same server under a name its certificate does not carry: refused by TLS, not by us.
      const wrongName = await failure(createOutboundClient(opts).request(`https://other.example.test:${secure.port}/`));
      expect(wrongName.code).toBe('transport');
      await expect(createOutboundClient(opts).request(`http://api.example.test:${secure.port}/`)).rejects.toMatchObject({ code: 'bad_url' });
    } finally {
      await secure.close();
    }
  });
});

describe('limits', () => {
  it('when the server does not answer in time, then the call fails with timeout', async () => {
    // The server never answers: only the client's timeout can end the call (else this test times out).
    const err = await failure(client({ timeoutMs: 200 }).request(`${stalled.origin}/`));
    expect(err).toMatchObject({ code: 'timeout', kind: 'unavailable', retryable: true });
  });

  it('when the body stalls after the headers, then the total timeout still applies', async () => {
    expect(await codeOf(client().request(`${api.origin}/stall-body`, { timeoutMs: 200 }))).toBe('timeout');
  });

  it('when DNS resolution hangs, then the total timeout covers it', async () => {
    const c = client({ timeoutMs: 100, resolve: () => new Promise(() => {}) });
    expect(await codeOf(c.request('https://slow-dns.example/'))).toBe('timeout');
  });

  it('when the body is larger than the cap, then the call fails with too_large, declared or streamed', async () => {
    const c = client({ maxBytes: 1024 });
    expect((await c.request(`${api.origin}/bytes?n=1024`)).body.length).toBe(1024);
    expect(await codeOf(c.request(`${api.origin}/bytes?n=1025`))).toBe('too_large');
    expect(await codeOf(c.request(`${api.origin}/bytes?n=5000&chunked=1`))).toBe('too_large');
    expect(await codeOf(client().request(`${api.origin}/bytes?n=${1024 * 1024 + 1}`))).toBe('too_large');
  });

  it('when the caller aborts, then the call stops with the caller\'s reason', async () => {
    const ctl = new AbortController();
    const call = client().request(`${stalled.origin}/`, { signal: ctl.signal });
    setTimeout(() => ctl.abort(new Error('caller gave up')), 50);
    await expect(call).rejects.toThrow('caller gave up');
  });
});

describe('redirects', () => {
  it('when redirects are off (the default), then the 3xx itself is returned', async () => {
    const res = await client().request(`${api.origin}/redirect?to=/json`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/json');
  });

  it('when redirects are allowed, then they are followed to an allowed target', async () => {
    const res = await client({ maxRedirects: 2 }).request(`${api.origin}/redirect?to=/json`);
    expect(res).toMatchObject({ status: 200, url: `${api.origin}/json`, redirects: 1 });
  });

  it('when a redirect points at a blocked address, then it is refused and the target never hit', async () => {
    const before = other.seen.length;
    const c = client({ maxRedirects: 3 });
    expect(await codeOf(c.request(`${api.origin}/redirect?to=${encodeURIComponent(`${other.origin}/`)}`))).toBe('blocked_target');
    expect(await codeOf(c.request(`${api.origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/')}`))).toBe('blocked_target');
    expect(await codeOf(c.request(`${api.origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`))).toBe('bad_url');
    expect(other.seen.length).toBe(before);
  });

  it('when redirects exceed the limit, then the call fails with http_status', async () => {
    const loop = `${api.origin}/redirect?to=${encodeURIComponent('/redirect?to=/redirect')}`;
    expect(await failure(client({ maxRedirects: 1 }).request(loop))).toMatchObject({ code: 'http_status', status: 302 });
  });

  it('when a POST meets 303, then it continues as a GET without body; credentials do not cross origins', async () => {
    const c = client({ maxRedirects: 2, allowPrivateHosts: ['localhost', `127.0.0.1:${api.port}`] });
    const to = encodeURIComponent(`http://localhost:${api.port}/echo`);
    const res = await c.request(`${api.origin}/redirect?status=303&to=${to}`, {
      method: 'POST',
      body: 'a=1',
      headers: { 'content-type': 'text/plain', authorization: 'Bearer s3cret', 'x-keep': 'yes' },
    });
    const echo = JSON.parse(res.body.toString());
    expect(echo.method).toBe('GET');
    expect(echo.body).toBe('');
    expect(echo.headers.authorization).toBeUndefined();
    expect(echo.headers['x-keep']).toBe('yes');
  });

  it('when a 307 stays on the same origin, then method, body and credentials are kept', async () => {
    const res = await client({ maxRedirects: 1 }).request(`${api.origin}/redirect?status=307&to=/echo`, {
      method: 'POST',
      body: 'payload',
      headers: { authorization: 'Bearer s3cret' },
    });
    expect(JSON.parse(res.body.toString())).toMatchObject({ method: 'POST', body: 'payload', headers: { authorization: 'Bearer s3cret' } });
  });
});

describe('getJson', () => {
  it('when the document is JSON, then it is returned, validated when a schema is given', async () => {
    expect(await client().getJson(`${api.origin}/json`)).toMatchObject({ issuer: 'https://idp.test' });
    const doc = await client().getJson(`${api.origin}/json`, { schema: z.object({ token_endpoint: z.string().url() }) });
    expect(doc.token_endpoint).toBe('https://idp.test/token');
  });

  it('when the status is not 2xx, then http_status carries it', async () => {
    expect(await failure(client().getJson(`${api.origin}/fail`))).toMatchObject({ code: 'http_status', status: 500, retryable: true });
    expect(await failure(client().getJson(`${api.origin}/missing`))).toMatchObject({ code: 'http_status', status: 404, retryable: false });
  });

  it('when the body is not JSON or not the expected shape, then bad_response', async () => {
    expect(await codeOf(client().getJson(`${api.origin}/not-json`))).toBe('bad_response');
    expect(await codeOf(client().getJson(`${api.origin}/json`, { schema: z.object({ jwks_uri: z.string() }) }))).toBe('bad_response');
  });
});

describe('fetch adapter', () => {
  it('when posting a form the way openid-client does, then the server gets it and a Response comes back', async () => {
    const res = await client().fetch(`${api.origin}/echo`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'abc' }),
      redirect: 'manual',
    });
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${api.origin}/echo`);
    expect(res.headers.get('content-type')).toBe('application/json');
    const echo = (await res.json()) as { body: string; headers: Record<string, string> };
    expect(echo.body).toBe('grant_type=authorization_code&code=abc');
    expect(echo.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
  });

  it('when the status has no body, then the Response has none', async () => {
    const res = await client().fetch(`${api.origin}/no-content`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it('when the target is blocked, then fetch rejects with the same typed error', async () => {
    expect(await codeOf(createOutboundClient().fetch('https://127.0.0.1/'))).toBe('blocked_target');
  });
});

describe('check', () => {
  it('when a URL would be refused, then check throws without sending anything; else it resolves', async () => {
    const before = other.seen.length;
    expect(await codeOf(createOutboundClient({ allowInsecure: true }).check(`${other.origin}/`))).toBe('blocked_target');
    await expect(client().check(`${api.origin}/`)).resolves.toBeUndefined();
    expect(other.seen.length).toBe(before);
  });
});

describe('options', () => {
  it('when an allow-list entry or a limit is malformed, then creating the client throws', () => {
    expect(() => createOutboundClient({ allowPrivateHosts: ['not an entry'] })).toThrow(TypeError);
    expect(() => createOutboundClient({ timeoutMs: 0 })).toThrow(TypeError);
    expect(() => createOutboundClient({ maxRedirects: -1 })).toThrow(TypeError);
  });
});
