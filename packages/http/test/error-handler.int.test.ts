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

  it('does not take constraint violations or bad SQL for an outage', () => {
    expect(isStoreUnreachable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isStoreUnreachable(Object.assign(new Error('no connection'), { code: '08006' }))).toBe(true);
  });
});
