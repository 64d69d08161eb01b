import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionCodec, sessionAuthenticator, type SessionRejection } from '../src/index.ts';

const SECRET = 'k'.repeat(32);
const codec = createSessionCodec({ secrets: [SECRET] });
const rejections: SessionRejection[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.get('/me', sessionAuthenticator({ codec, onReject: (reason) => rejections.push(reason) }), (req, res) => {
    res.json({ user_id: req.session?.user_id, identities: req.session?.identities });
  });
  app.get('/me-from-secrets', sessionAuthenticator({ secrets: [SECRET] }), (req, res) => {
    res.json({ user_id: req.session?.user_id });
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => { await new Promise((resolve) => server.close(resolve)); });

describe('sessionAuthenticator', () => {
  it('when the session cookie is valid, then the handler sees req.session', async () => {
    const { token, session } = codec.issue({ user_id: '2b1f8a34-5d6e-4f70-8a9b-0c1d2e3f4a5b', identities: ['sso:acme:okta'] });
    for (const path of ['/me', '/me-from-secrets']) {
      const res = await fetch(`${base}${path}`, { headers: { cookie: `a=b; ${codec.cookieName}=${token}` } });
      expect(res.status).toBe(200);
      expect((await res.json()) as unknown).toMatchObject({ user_id: session.user_id });
    }
  });

  it('when the cookie is missing or tampered, then 401 {"detail":"Unauthorized"} and the reason is reported', async () => {
    rejections.length = 0;
    const { token } = codec.issue({ user_id: '2b1f8a34-5d6e-4f70-8a9b-0c1d2e3f4a5b', identities: [] });
    const missing = await fetch(`${base}/me`);
    const tampered = await fetch(`${base}/me`, { headers: { cookie: `${codec.cookieName}=${token.replace('.', '.x')}` } });
    for (const res of [missing, tampered]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ detail: 'Unauthorized' });
    }
    expect(rejections).toEqual(['missing', 'bad_signature']);
  });
});
