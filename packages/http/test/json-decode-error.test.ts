// A body that is not JSON: the 422 must carry fixed words (and at most a position), never the
// parser's message, which quotes part of the body. The real JSON body parser reads a request
// played by an in-memory stream and the real error handler answers; no socket is opened.
import { Readable } from 'node:stream';
import express, { type Request, type Response } from 'express';
import { describe, expect, it } from 'vitest';
import { errorHandler, jsonDecodeMessage } from '../src/error-handler.ts';

const SECRET = 'sk-live-TOPSECRET';

/** What express.json() and the error handler answer for `body`. */
async function answer(body: string): Promise<{ status?: number; body?: unknown }> {
  const bytes = Buffer.from(body, 'utf8');
  const req = Object.assign(Readable.from([bytes]), {
    headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) },
    method: 'POST', url: '/', log: undefined,
  }) as unknown as Request;
  const out: { status?: number; body?: unknown } = {};
  const res = {
    headersSent: false,
    setHeader() { return this; },
    status(n: number) { out.status = n; return this; },
    json(b: unknown) { out.body = b; return this; },
    end() { return this; },
  } as unknown as Response;
  const err = await new Promise<unknown>((resolve) => { express.json({ limit: 1024 * 1024 })(req, res, resolve); });
  expect(err, 'the parser must refuse the body').toBeDefined();
  errorHandler()(err, req, res, () => undefined);
  return out;
}

// Bodies whose parser messages quote the body (V8's "Unexpected token …, "…" is not valid JSON"),
// name a position after the secret, or come from body-parser's strict first-character check.
const HOSTILE = [
  `{"r":{"key":${SECRET}"}}`,
  `{"provider":{"key":"${SECRET}",}}`,
  `{"provider":{"key":"${SECRET}"}}x`,
  `{"provider":{"key":"${SECRET}\n"}}`,
  `${SECRET}`,
  `"${SECRET}"`,
  `{"a":[1,2,${SECRET}]}`,
  `{"JSON at position 12345":${SECRET}`,
  `[${'1,'.repeat(50)}${SECRET}]`,
  `{"k":"${SECRET}"`,
];

describe('a body that is not valid JSON', () => {
  it.each(HOSTILE)('when the body is %j, then 422 json_invalid and the secret is nowhere in the answer', async (body) => {
    const r = await answer(body);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ detail: [{ loc: ['body'], msg: expect.stringMatching(/^JSON decode error( at position \d+)?$/), type: 'json_invalid' }] });
    const text = JSON.stringify(r.body);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('sk-live');
    expect(text).not.toContain('TOPSECRET');
    expect(text).not.toContain('TO"');
  });

  it('when the parser names a position, then the message gives it; when it quotes the body, then no position', async () => {
    expect(await answer('{a}')).toMatchObject({ status: 422, body: { detail: [{ msg: 'JSON decode error at position 1' }] } });
    expect(await answer('{"a":1}x')).toMatchObject({ body: { detail: [{ msg: 'JSON decode error at position 7' }] } });
    expect(await answer('{"a":')).toMatchObject({ body: { detail: [{ msg: 'JSON decode error' }] } });
    expect(await answer(`{"r":{"key":${SECRET}"}}`)).toMatchObject({ body: { detail: [{ msg: 'JSON decode error' }] } });
  });

  it('when a message only looks like it ends in a position inside the quoted body, then no position is taken from it', () => {
    expect(jsonDecodeMessage(`Unexpected token 's', "...JSON at position 42" is not valid JSON`)).toBe('JSON decode error');
    expect(jsonDecodeMessage('Unexpected token } in JSON at position 12')).toBe('JSON decode error at position 12');
    expect(jsonDecodeMessage("Expected ',' or '}' after property value in JSON at position 9 (line 1 column 10)")).toBe('JSON decode error at position 9');
    expect(jsonDecodeMessage(undefined)).toBe('JSON decode error');
    expect(jsonDecodeMessage(`JSON at position 1\n${SECRET}`)).toBe('JSON decode error');
  });
});
