// One error grammar (issue 29): the real createHttpApp over the whole route table, with a stub for
// every handler (no store behind them), answered over a loopback socket. A wrong method on a known
// path is 405 with Allow, a body in another media type is 415, every 401 names its scheme, the HTTP
// parser's own refusals (431, 400, 413) carry a JSON body, and operator paths use the admin shape.
import net from 'node:net';
import type { RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf, type RouteId } from '@llm/contracts';
import { unauthenticated } from '@llm/errors';
import { createLogger } from '@llm/logging';
import { createHttpApp, createReadiness, listen, type Handlers, type RunningServer } from '../src/index.ts';

// Routes whose stub refuses the credential, one per family the challenge depends on.
const REFUSING = new Set<RouteId>(['traces.list', 'auth.session', 'admin.replay']);
const stub = (id: RouteId): RequestHandler => (req, res) => {
  if (REFUSING.has(id)) throw unauthenticated();
  res.json({ route: id, body: req.body ?? null });
};
const stubs = (side: 'command' | 'query' | 'projector'): Handlers => Object.fromEntries(routesOf(side).map((id) => [id, stub(id)]));

let server: RunningServer;
let base: string;
beforeAll(async () => {
  const app = createHttpApp({ log: createLogger({ name: 'test', level: 'silent' }), readiness: createReadiness(), jsonLimitBytes: 1024 }, [
    { side: 'command', handlers: stubs('command') }, { side: 'query', handlers: stubs('query') }, { side: 'projector', handlers: stubs('projector') },
  ]);
  server = await listen(app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => { await server?.close(0); });

/** Writes raw bytes on a fresh connection and returns all the server sends back. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.on('data', (b: Buffer) => { out += b.toString('latin1'); });
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}
const bodyOf = (response: string): unknown => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe('a known path with a method it does not serve', () => {
  it('when PATCH /traces is sent, then it is 405 with Allow listing the methods of that path and a detail', async () => {
    const r = await fetch(`${base}/traces`, { method: 'PATCH' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await r.json()).toEqual({ detail: expect.stringContaining('PATCH is not allowed') });
  });

  it('when the path is spelled with /api, upper case, a trailing slash or /preview, then Allow is the same', async () => {
    for (const path of ['/api/api/OTLP/v1/traces/', '/otlp/v1/traces']) {
      const r = await fetch(`${base}${path}`, { method: 'PUT' });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('GET, HEAD, POST');
    }
    const preview = await fetch(`${base}/preview/spans/query`, { method: 'GET' });
    expect(preview.status).toBe(405);
    expect(preview.headers.get('allow')).toBe('POST');
  });

  it('when a concrete path matches several patterns, then Allow is the union of their methods', async () => {
    // /traces/query is POST traces.query, and also a trace id for GET, PUT and DELETE /traces/{trace_id}.
    const r = await fetch(`${base}/traces/query`, { method: 'PATCH' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('DELETE, GET, HEAD, POST, PUT');
  });

  it('when OPTIONS is sent to a known path, then it is 204 with Allow', async () => {
    const r = await fetch(`${base}/spans/query`, { method: 'OPTIONS' });
    expect(r.status).toBe(204);
    expect(r.headers.get('allow')).toBe('POST');
  });

  it('when the path is unknown, then it stays 404 with a detail', async () => {
    const r = await fetch(`${base}/no/such/path`, { method: 'PATCH' });
    expect(r.status).toBe(404);
    expect(r.headers.get('allow')).toBeNull();
    expect(await r.json()).toEqual({ detail: 'Not Found' });
  });

  it('when the path is an operator path, then the error has the admin shape', async () => {
    const r = await fetch(`${base}/admin/replay/spans`, { method: 'GET' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(await r.json()).toEqual({ detail: { message: expect.stringContaining('GET is not allowed') } });
    expect(await (await fetch(`${base}/admin/nothing/here`)).json()).toEqual({ detail: { message: 'Not Found' } });
  });
});

describe('the media type of a body', () => {
  it('when a JSON route gets a text/plain body, then it is 415 naming the type, not a validator\'s 422', async () => {
    const r = await fetch(`${base}/traces`, { method: 'POST', body: '{"trace":{}}', headers: { 'Content-Type': 'text/plain' } });
    expect(r.status).toBe(415);
    expect(await r.json()).toEqual({ detail: "Unsupported Content-Type 'text/plain': send the body as application/json." });
  });

  it.each(['application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'json'])('when the body is %s, then it is 415', async (type) => {
    expect((await fetch(`${base}/spans/query`, { method: 'POST', body: 'a=1', headers: { 'Content-Type': type } })).status).toBe(415);
  });

  it('when the body is JSON, +json, or has no Content-Type at all, then the handler reads it', async () => {
    for (const headers of [{ 'Content-Type': 'application/json' }, { 'Content-Type': 'application/vnd.api+json' }, {}] as Array<Record<string, string>>) {
      const r = await fetch(`${base}/spans/query`, { method: 'POST', body: new TextEncoder().encode('{"a":1}'), headers });
      expect({ headers, status: r.status, body: await r.json() }).toEqual({ headers, status: 200, body: { route: 'spans.query', body: { a: 1 } } });
    }
  });

  it('when a write has no body, or a GET has a body of any type, then no 415', async () => {
    expect((await fetch(`${base}/queries/q1/archive`, { method: 'POST', headers: { 'Content-Type': 'text/plain' } })).status).toBe(200);
    const get = await raw('GET /traces/abc HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi');
    expect(get).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('when a raw-body route (OTLP) gets another media type, then its own handler decides', async () => {
    const r = await fetch(`${base}/otlp/v1/traces`, { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } });
    expect(r.status).toBe(200);
  });
});

describe('a refused credential', () => {
  it.each([
    ['/traces', 'ApiKey realm="llm"'],
    ['/api/auth/session', 'Session realm="llm", cookie="llm_session"'],
  ])('when GET %s is refused, then the 401 names the scheme %s', async (path, challenge) => {
    const r = await fetch(`${base}${path}`);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe(challenge);
    expect(await r.json()).toEqual({ detail: 'Unauthorized' });
  });

  it('when an operator path is refused, then the 401 names the Access scheme and has the admin shape', async () => {
    const r = await fetch(`${base}/admin/replay/spans`, { method: 'POST' });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Access realm="llm-admin"');
    expect(await r.json()).toEqual({ detail: { message: 'Unauthorized' } });
  });
});

describe('what the HTTP parser refuses', () => {
  it('when the headers are too large, then it is 431 with a JSON body', async () => {
    const r = await raw(`GET /traces HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(r).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(r).toContain('Content-Type: application/json');
    expect(bodyOf(r)).toEqual({ detail: 'Request header fields too large.' });
  });

  it('when the request line is not HTTP, then it is 400 with a JSON body', async () => {
    const r = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(r).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(bodyOf(r)).toEqual({ detail: 'Bad request.' });
  });

  it('when a chunk carries oversized extensions, then it is 413 with a JSON body', async () => {
    const r = await raw(`POST /traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`);
    expect(r).toMatch(/^HTTP\/1\.1 413 /);
    expect(bodyOf(r)).toEqual({ detail: 'Request body chunk extensions too large.' });
  });

  it('when a JSON body is over the limit, then it is 413 with a detail (the admin shape on operator paths)', async () => {
    const big = JSON.stringify({ x: 'y'.repeat(2_000) });
    const r = await fetch(`${base}/traces`, { method: 'POST', body: big, headers: { 'Content-Type': 'application/json' } });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ detail: 'Request body too large.' });
    const admin = await fetch(`${base}/admin/replay/spans`, { method: 'POST', body: big, headers: { 'Content-Type': 'application/json' } });
    expect(admin.status).toBe(413);
    expect(await admin.json()).toEqual({ detail: { message: 'Request body too large.' } });
  });
});
