import http from 'node:http';
import net from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, requestContext, type RunningServer } from '@llm/http';
import { createLogger } from '@llm/logging';
import { proxyTo } from '../src/http/proxy.ts';

/** An upstream that answers its name and the body it received. */
function upstream(name: string): Promise<http.Server & { url: string }> {
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.end(JSON.stringify({ name, body: Buffer.concat(chunks).toString() })));
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => {
    resolve(Object.assign(srv, { url: `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}` }));
  }));
}

/** A port nothing listens on: connections to it are refused. */
async function refusedUrl(): Promise<string> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

const ups: Array<http.Server & { url: string }> = [];
const gateways: RunningServer[] = [];
async function gateway(urls: string[]): Promise<string> {
  const app = express();
  app.use(requestContext(createLogger({ name: 'gw', level: 'silent' })));
  app.use(proxyTo(urls));
  const g = await listen(app, 0, '127.0.0.1');
  gateways.push(g);
  return `http://127.0.0.1:${g.port}`;
}
const post = (base: string, body: string): Promise<{ status: number; json: { name: string; body: string } }> =>
  fetch(`${base}/x`, { method: 'POST', body }).then(async (r) => ({ status: r.status, json: await r.json() as { name: string; body: string } }));

beforeAll(async () => { ups.push(await upstream('a'), await upstream('b')); });
afterAll(async () => {
  for (const g of gateways) await g.close();
  for (const u of ups) u.close();
});

describe('gateway proxy over replicas', () => {
  it('when a side has two replicas, then requests alternate between them with their bodies intact', async () => {
    const base = await gateway([ups[0]!.url, ups[1]!.url]);
    const got = [];
    for (let i = 0; i < 4; i++) got.push(await post(base, `body-${i}`));
    expect(got.map((g) => g.json.name)).toEqual(['a', 'b', 'a', 'b']);
    expect(got.map((g) => g.json.body)).toEqual(['body-0', 'body-1', 'body-2', 'body-3']);
  });

  it('when one replica refuses the connection, then every request is served by the other, body included', async () => {
    const base = await gateway([await refusedUrl(), ups[1]!.url]);
    for (let i = 0; i < 3; i++) {
      const r = await post(base, `payload-${i}`);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ name: 'b', body: `payload-${i}` });
    }
  });

  it('when every replica refuses the connection, then 503 with Retry-After', async () => {
    const base = await gateway([await refusedUrl(), await refusedUrl()]);
    const r = await fetch(`${base}/x`, { method: 'POST', body: 'x' });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
  });
});
