import express from 'express';
import { describe, expect, it } from 'vitest';
import { errorHandler, isStoreUnreachable } from '../src/error-handler.ts';

async function answer(err: unknown): Promise<{ status: number; body: unknown; retryAfter: string | null }> {
  const app = express();
  app.get('/', () => { throw err; });
  app.use(errorHandler());
  const server = app.listen(0);
  const port = (server.address() as { port: number }).port;
  try {
    const r = await fetch(`http://127.0.0.1:${port}/`);
    return { status: r.status, body: await r.json(), retryAfter: r.headers.get('retry-after') };
  } finally { server.close(); }
}

describe('errorHandler', () => {
  it('answers 503 with Retry-After when Postgres is unreachable, and an opaque 500 for bugs', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(await answer(refused)).toEqual({ status: 503, body: { detail: 'A backing store is not available; retry shortly.' }, retryAfter: '1' });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect((await answer(shutdown)).status).toBe(503);
    expect(await answer(new TypeError('x is undefined'))).toEqual({ status: 500, body: { detail: 'An internal error has occurred.' }, retryAfter: null });
  });

  it('when the router or a parser raises a client error (URIError, http-errors 4xx), then it is that 4xx with a detail; an upstream\'s 4xx stays an opaque 500', async () => {
    // What the router raises for `/secrets/%zz`: a URIError with status 400 and no type.
    const routerUriError = Object.assign(new URIError("Failed to decode param '%zz'"), { status: 400, statusCode: 400 });
    expect(await answer(routerUriError)).toEqual({ status: 400, body: { detail: 'The request path or a parameter is not valid percent-encoding.' }, retryAfter: null });
    expect((await answer(new URIError('URI malformed'))).status).toBe(400);
    const charset = Object.assign(new Error('unsupported charset "LATIN1"'), { status: 415, statusCode: 415, expose: true, type: 'charset.unsupported' });
    expect(await answer(charset)).toEqual({ status: 415, body: { detail: 'unsupported charset "LATIN1"' }, retryAfter: null });
    const aborted = Object.assign(new Error('request aborted'), { status: 400, expose: true, type: 'request.aborted' });
    expect((await answer(aborted)).status).toBe(400);
    const hidden = Object.assign(new Error('x'.repeat(10_000)), { status: 431, expose: false });
    expect(await answer(hidden)).toEqual({ status: 431, body: { detail: 'Request header fields too large.' }, retryAfter: null });
    const upstream = Object.assign(new Error('No such customer'), { statusCode: 400, type: 'StripeInvalidRequestError' });
    expect(await answer(upstream)).toEqual({ status: 500, body: { detail: 'An internal error has occurred.' }, retryAfter: null });
  });

  it('does not take constraint violations or bad SQL for an outage', () => {
    expect(isStoreUnreachable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isStoreUnreachable(Object.assign(new Error('no connection'), { code: '08006' }))).toBe(true);
  });
});
