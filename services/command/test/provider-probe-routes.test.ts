// The probe handler with the outbound guard played by a fake: what the guard's failures become,
// and that no answer — 200 or 422 — carries the key back.
import http from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '@llm/http';
import { OutboundError, type OutboundRequestInit, type OutboundResponse } from '@llm/outbound';
import { UNSENDABLE_MESSAGE, providerProbeRoutes } from '../src/accounts/http/provider-probe-routes.ts';

const KEY = 'sk-unit-5f0c2d9e8b7a6f4e3d2c1b0a';

interface Sent { url: string; init: OutboundRequestInit }

function route(answer: (url: string) => Promise<OutboundResponse>) {
  const sent: Sent[] = [];
  const handlers = providerProbeRoutes({
    request: (url, init) => { sent.push({ url, init }); return answer(url); },
    options: { timeoutMs: 1234, baseUrls: {} },
  }, { edit: [] });
  const handler = (handlers['providers.probe'] as RequestHandler[])[0]!;
  const call = async (body: unknown): Promise<{ status?: number; body?: unknown }> => {
    const out: { status?: number; body?: unknown } = {};
    const res = {
      headersSent: false,
      setHeader() { return this; },
      status(n: number) { out.status = n; return this; },
      json(b: unknown) { out.body = b; return this; },
    } as unknown as Response;
    const req = { body } as unknown as Request;
    // Errors go through the central renderer, as in the app.
    try { await handler(req, res, () => undefined); } catch (err) { errorHandler()(err, req, res, () => undefined); }
    return out;
  };
  return { call, sent };
}

const response = (status: number, body: string): OutboundResponse => ({ status, statusText: '', headers: {}, body: Buffer.from(body), url: 'https://x', redirects: 0 });

describe('POST /providers/probe (handler)', () => {
  it('when the provider answers, then one GET with the limit and no redirects, and the key is not in the answer', async () => {
    const { call, sent } = route(async () => response(200, '{"data":[{"id":"gpt-4o"}]}'));
    const r = await call({ kind: 'openai', provider: { key: KEY } });
    expect(r).toMatchObject({ status: 200, body: { credential: { status: 'valid' }, discovery: { status: 'fetched', models: ['gpt-4o'] }, fetched_at: expect.stringMatching(/Z$/) } });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.init).toMatchObject({ method: 'GET', maxRedirects: 0, timeoutMs: 1234 });
    expect(JSON.stringify(r.body)).not.toContain(KEY);
  });

  it('when the guard times out, then 200 unknown "Could not reach … in time." + failed', async () => {
    const { call } = route(async () => { throw new OutboundError('timeout', "The call to 'api.openai.com' did not complete within 1234 ms."); });
    expect(await call({ kind: 'openai', provider: { key: KEY } })).toMatchObject({
      status: 200, body: { credential: { status: 'unknown', message: 'Could not reach OpenAI in time.' }, discovery: { status: 'failed', models: [] } },
    });
  });

  it('when the guard cannot connect, then 200 unknown + failed', async () => {
    const { call } = route(async () => { throw new OutboundError('transport', 'The request failed (ECONNREFUSED).'); });
    expect(await call({ kind: 'anthropic', provider: { key: KEY } })).toMatchObject({ status: 200, body: { credential: { status: 'unknown' }, discovery: { status: 'failed' } } });
  });

  it('when the guard refuses the address, then 422 with the reason as detail', async () => {
    const blocked = "The host '10.0.0.1' is not allowed: outbound calls may only reach public internet addresses.";
    const { call } = route(async () => { throw new OutboundError('blocked_target', blocked); });
    expect(await call({ kind: 'custom', provider: { key: KEY, url: 'https://10.0.0.1/v1' } })).toEqual({ status: 422, body: { detail: blocked } });
  });

  it('when the kind is unknown or the base URL missing, then 422 {detail: string} and nothing is sent', async () => {
    const { call, sent } = route(async () => response(200, '{}'));
    const unknown = await call({ kind: 'nope', provider: { key: KEY } });
    expect(unknown.status).toBe(422);
    expect((unknown.body as { detail: string }).detail).toMatch(/^'nope' is not a provider Agenta can test\. Supported: alephalpha, /);
    expect(await call({ kind: 'azure', provider: { key: KEY } })).toEqual({ status: 422, body: { detail: 'This provider needs a base URL to test.' } });
    expect(await call({ kind: 'sagemaker', provider: { key: KEY } })).toMatchObject({ status: 200, body: { credential: { status: 'unknown' }, discovery: { status: 'unsupported' } } });
    expect(sent).toHaveLength(0);
  });

  it('when the body is invalid around the key, then the 422 names the field but never carries the key', async () => {
    const { call } = route(async () => response(200, '{}'));
    for (const body of [
      { kind: 'openai', provider: { key: `${KEY}\u0000` } },
      { kind: 'openai', provider: { key: `${KEY}\ud800` } },
      { kind: 'openai', provider: { key: KEY.repeat(400) } },
      { kind: 5, provider: { key: KEY } },
      { kind: 'openai', provider: { key: KEY, url: 7, extras: { api_key: `${KEY}\u0000` } } },
      { kind: 'openai', provider: KEY },
    ]) {
      const r = await call(body);
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).not.toContain(KEY.slice(3, 20));
    }
  });

  it('when a kind that needs a key is given none, then 200 invalid "No key was given." + failed and nothing is sent', async () => {
    const { call, sent } = route(async () => response(200, '{"data":[{"id":"gpt-4o"}]}'));
    for (const body of [
      { kind: 'openai', provider: {} },
      { kind: 'anthropic', provider: { key: null } },
      { kind: 'azure', provider: { key: '', url: 'https://r.openai.azure.com' } },
      { kind: 'mistralai', provider: { key: '' } },
    ]) {
      expect(await call(body)).toMatchObject({
        status: 200, body: { credential: { status: 'invalid', message: 'No key was given.' }, discovery: { status: 'failed', models: [] }, fetched_at: expect.stringMatching(/Z$/) },
      });
    }
    expect(sent).toHaveLength(0);
  });

  it('when the key holds CR/LF, a space, a control character or anything beyond ASCII, then 422 naming the rule, nothing sent, the key not echoed', async () => {
    // Each of these once reached http.request, which threw ERR_INVALID_CHAR: a 500.
    const { call, sent } = route(async () => response(200, '{"data":[]}'));
    for (const key of [
      `${KEY}\r\nX-Injected: 1`, `${KEY}\n`, `\r${KEY}`, `${KEY} `, ` ${KEY}`, `sk-unit ${KEY}`, `${KEY}\t`, `${KEY}\u007f`, `${KEY}\u0001`,
      `${KEY}é`, `${KEY}\u00a0`, `${KEY}\u2603`, `${KEY}\u{1f511}`, `${KEY}\u0100`, '   ',
    ]) {
      for (const kind of ['openai', 'anthropic', 'gemini', 'azure', 'custom']) {
        const r = await call({ kind, provider: { key, url: kind === 'azure' || kind === 'custom' ? 'https://llm.example.com/v1' : undefined } });
        expect(r.status, JSON.stringify(key)).toBe(422);
        expect(r.body).toEqual({ detail: [{ loc: ['body', 'provider', 'key'], msg: 'key must contain only printable ASCII characters without spaces', type: 'invalid_format' }] });
        expect(JSON.stringify(r.body)).not.toContain(KEY.slice(3, 20));
      }
    }
    expect(sent).toHaveLength(0);
    // Every printable ASCII character but the space is accepted and sent as given.
    const printable = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    expect(await call({ kind: 'openai', provider: { key: printable } })).toMatchObject({ status: 200, body: { credential: { status: 'valid' } } });
    expect(sent.at(-1)!.init.headers).toMatchObject({ authorization: `Bearer ${printable}` });
  });

  it('when Node refuses a header anyway (defence in depth), then 422 with our words, never Node\'s message or the key', async () => {
    // The guard played by Node's own header checks: the very errors http.request throws.
    const nodeRefuses = (name: string, value: unknown) => async (): Promise<OutboundResponse> => {
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value as string);
      return response(200, '{"data":[]}');
    };
    for (const [answer, code] of [
      [nodeRefuses('authorization', `Bearer ${KEY}\r\nX-Injected: 1`), 'ERR_INVALID_CHAR'],
      [nodeRefuses('authorization', `Bearer ${KEY}\u2603`), 'ERR_INVALID_CHAR'],
      [nodeRefuses(`x-api-key ${KEY}`, KEY), 'ERR_INVALID_HTTP_TOKEN'],
      [nodeRefuses('authorization', undefined), 'ERR_HTTP_INVALID_HEADER_VALUE'],
      // Should a wrapper (the guard's transport error, say) ever carry Node's error as its cause.
      [async () => {
        try { http.validateHeaderValue('authorization', `Bearer ${KEY}\n`); } catch (cause) { throw new OutboundError('transport', 'The request failed (ERR_INVALID_CHAR).', { cause }); }
        return response(200, '{}');
      }, 'ERR_INVALID_CHAR'],
    ] as const) {
      const thrown = await answer().then(() => undefined, (err: unknown) => err as { code?: string; cause?: { code?: string } });
      expect([thrown?.code, thrown?.cause?.code]).toContain(code);
      const { call } = route(answer);
      const r = await call({ kind: 'openai', provider: { key: KEY } });
      expect(r).toEqual({ status: 422, body: { detail: UNSENDABLE_MESSAGE } });
      expect(JSON.stringify(r.body)).not.toContain(KEY.slice(3, 20));
    }
  });

  it('when the guard throws an error that is no header refusal, then it still reaches the central renderer as a 500', async () => {
    const { call } = route(async () => { throw Object.assign(new TypeError('boom'), { code: 'ERR_SOMETHING_ELSE' }); });
    expect(await call({ kind: 'openai', provider: { key: KEY } })).toEqual({ status: 500, body: { detail: 'An internal error has occurred.' } });
  });
});
