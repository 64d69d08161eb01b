// sendDelivery against real loopback receivers through the real outbound guard: the §9.7 verdicts
// (2xx, 4xx, 3xx, 5xx, timeout, refused connection, guard refusal) and the §9.6 request format.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient, type OutboundClient } from '@llm/outbound';
import type { SubscriptionForDelivery, WebhookEventFact } from '../src/context.ts';
import { prepareDelivery, type PreparedDelivery } from '../src/outbound-request.ts';
import { sendDelivery } from '../src/send.ts';
import { verifySignature } from '../src/signature.ts';
import { closedPort, startReceiver, type Receiver } from './support/receiver.ts';

const event: WebhookEventFact = {
  event_id: '0190a5b2-7c3e-7a10-8000-000000000001',
  event_type: 'webhooks.subscriptions.tested',
  timestamp: '2024-07-01T10:00:00.000Z',
  created_at: '2024-07-01T10:00:00.000Z',
  attributes: { subscription_id: 'draft', note: 'héllo 😀' },
};
const deliveryId = '9ee5e94c-9bee-5093-81c2-ef8a0eb2ac3a';
const now = (): Date => new Date();

let receiver: Receiver;
let client: OutboundClient;
const hanging: ServerResponse[] = [];

function prepared(path: string, extra: Partial<SubscriptionForDelivery> = {}, origin = receiver.origin): PreparedDelivery {
  return prepareDelivery({
    deliveryId,
    event,
    subscription: { id: 'draft', url: `${origin}${path}`, auth_mode: 'signature', headers: { 'X-Team': 'blue', Authorization: 'user-given' }, ...extra },
    projectId: '0190a5b2-7c3e-7a10-8000-0000000000aa',
  });
}

beforeAll(async () => {
  receiver = await startReceiver((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const status = Number(url.searchParams.get('status') ?? 200);
    switch (url.pathname) {
      case '/hang':
        hanging.push(res);
        return;
      case '/big':
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end('y'.repeat(200_000));
        return;
      case '/long':
        res.writeHead(status);
        res.end('é'.repeat(3000));
        return;
      case '/redirect':
        res.writeHead(302, { location: `${receiver.origin}/elsewhere` });
        res.end('moved');
        return;
      default:
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(`answer ${status}`);
    }
  });
  client = createOutboundClient({ allowInsecure: true, allowPrivateHosts: [`127.0.0.1:${receiver.port}`], connectTimeoutMs: 2000 });
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await receiver.close();
});

describe('sendDelivery', () => {
  it('when the receiver answers 200, then success is recorded and the request follows §9.6', async () => {
    const p = prepared('/ok');
    const before = receiver.seen.length;
    const outcome = await sendDelivery(client, p, { mode: 'signature', secret: 'whsec_1' }, { timeoutMs: 5000, now });
    expect(outcome.kind).toBe('success');
    expect(outcome.status).toMatchObject({ code: '200', message: 'success' });
    expect(outcome.data.response).toEqual({ status_code: 200, body: 'answer 200' });
    expect(outcome.data.error).toBeUndefined();
    expect(outcome.data).toMatchObject({ event_type: event.event_type, url: p.url, payload: p.payload });
    expect(outcome.data.headers['X-Agenta-Signature']).toBe('[REDACTED]');

    const got = receiver.seen[before]!;
    expect(got.method).toBe('POST');
    expect(got.raw.toString('utf8')).toBe(p.body);
    expect(p.body).toContain('"note":"h\\u00e9llo \\ud83d\\ude00"');
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Agenta-Webhook/1.0',
      'x-agenta-event-type': event.event_type,
      'x-agenta-event-id': event.event_id,
      'x-agenta-delivery-id': deliveryId,
      'idempotency-key': deliveryId,
      'x-team': 'blue',
      host: `127.0.0.1:${receiver.port}`,
    });
    expect(got.headers.authorization).toBeUndefined();
    expect(verifySignature('whsec_1', got.raw, String(got.headers['x-agenta-signature']))).toBe(true);
    expect(verifySignature('other', got.raw, String(got.headers['x-agenta-signature']))).toBe(false);
  });

  it('when in authorization mode, then the raw secret is sent and recorded redacted', async () => {
    const before = receiver.seen.length;
    const outcome = await sendDelivery(client, prepared('/ok'), { mode: 'authorization', secret: 'Token xyz' }, { timeoutMs: 5000 });
    expect(outcome.kind).toBe('success');
    expect(receiver.seen[before]!.headers.authorization).toBe('Token xyz');
    expect(receiver.seen[before]!.headers['x-agenta-signature']).toBeUndefined();
    expect(outcome.data.headers.Authorization).toBe('[REDACTED]');
  });

  it('when the receiver answers 404, then failed without retry', async () => {
    const outcome = await sendDelivery(client, prepared('/x?status=404'), { mode: 'signature', secret: 's' }, { timeoutMs: 5000 });
    expect(outcome.kind).toBe('failed');
    expect(outcome.status).toMatchObject({ code: '404', message: 'failed' });
    expect(outcome.data.response).toEqual({ status_code: 404, body: 'answer 404' });
  });

  it('when the receiver redirects, then the redirect is not followed and the delivery failed', async () => {
    const before = receiver.seen.length;
    const outcome = await sendDelivery(client, prepared('/redirect'), { mode: 'signature', secret: 's' }, { timeoutMs: 5000 });
    expect(outcome.kind).toBe('failed');
    expect(outcome.status.code).toBe('302');
    expect(receiver.seen.length).toBe(before + 1);
  });

  it('when the receiver answers 500, then retry with the status recorded', async () => {
    const outcome = await sendDelivery(client, prepared('/x?status=500'), { mode: 'signature', secret: 's' }, { timeoutMs: 5000 });
    expect(outcome.kind).toBe('retry');
    expect(outcome.status).toMatchObject({ code: '500', message: 'failed' });
    expect(outcome.data.response?.status_code).toBe(500);
  });

  it('when the response body is long, then 2000 characters are kept', async () => {
    const outcome = await sendDelivery(client, prepared('/long'), { mode: 'signature', secret: 's' }, { timeoutMs: 5000 });
    expect(outcome.kind).toBe('success');
    expect(outcome.data.response?.body).toBe('é'.repeat(2000));
  });

  it('when the response body passes the read cap, then the status still decides', async () => {
    const ok = await sendDelivery(client, prepared('/big?status=200'), { mode: 'signature', secret: 's' }, { timeoutMs: 5000 });
    expect(ok.kind).toBe('success');
    expect(ok.status.code).toBe('200');
    expect(ok.data.response).toEqual({ status_code: 200 });
    const bad = await sendDelivery(client, prepared('/big?status=503'), { mode: 'signature', secret: 's' }, { timeoutMs: 5000 });
    expect(bad.kind).toBe('retry');
    expect(bad.status.code).toBe('503');
  });

  it('when the receiver never answers, then the request is aborted: retry with code 0 and a Timeout error', async () => {
    const before = hanging.length;
    const sending = sendDelivery(client, prepared('/hang'), { mode: 'signature', secret: 's' }, { timeoutMs: 300 });
    // The receiver holds the request; the sender's abort is what closes it (nobody here ends it).
    while (hanging.length === before) await new Promise((r) => setTimeout(r, 10));
    const held = hanging[before]!;
    const closedByPeer = new Promise<boolean>((resolve) => { if (held.closed) resolve(true); else held.once('close', () => resolve(true)); });
    const outcome = await sending;
    expect(await closedByPeer).toBe(true);
    expect(held.writableEnded).toBe(false);
    expect(outcome.kind).toBe('retry');
    expect(outcome.status).toMatchObject({ code: '0', message: 'failed' });
    expect(outcome.data.error).toMatch(/^Timeout: /);
    expect(outcome.data.response).toBeUndefined();
  });

  it('when the connection is refused, then retry with code 0 and the transport error', async () => {
    const port = await closedPort();
    const c = createOutboundClient({ allowInsecure: true, allowPrivateHosts: [`127.0.0.1:${port}`] });
    const outcome = await sendDelivery(c, prepared('/ok', {}, `http://127.0.0.1:${port}`), { mode: 'signature', secret: 's' }, { timeoutMs: 2000 });
    expect(outcome.kind).toBe('retry');
    expect(outcome.status.code).toBe('0');
    expect(outcome.data.error).toMatch(/ECONNREFUSED/);
  });

  it('when the guard refuses the URL, then failed with code 400, nothing sent, no retry', async () => {
    const strict = createOutboundClient({ allowInsecure: true }); // loopback not allowed
    const before = receiver.seen.length;
    const refused = await sendDelivery(strict, prepared('/ok'), { mode: 'signature', secret: 's' }, { timeoutMs: 2000 });
    expect(refused.kind).toBe('failed');
    expect(refused.status).toMatchObject({ code: '400', message: 'failed' });
    expect(refused.data.error).toMatch(/not allowed/);
    expect(receiver.seen.length).toBe(before);

    for (const url of ['ftp://example.com/x', `http://user:pw@127.0.0.1:${receiver.port}/ok`, 'http://localhost/x']) {
      const p = { ...prepared('/ok'), url };
      const o = await sendDelivery(client, p, { mode: 'signature', secret: 's' }, { timeoutMs: 2000 });
      expect(o.kind, url).toBe('failed');
      expect(o.status.code, url).toBe('400');
      expect(o.data.error, url).toBeTruthy();
    }
    const httpsOnly = createOutboundClient({ allowPrivateHosts: [`127.0.0.1:${receiver.port}`] });
    const insecure = await sendDelivery(httpsOnly, prepared('/ok'), { mode: 'signature', secret: 's' }, { timeoutMs: 2000 });
    expect(insecure.status.code).toBe('400');
    expect(insecure.data.error).toMatch(/https/);
    expect(receiver.seen.length).toBe(before);
  });

  // Framing and hop-by-hop headers a user may have configured; none may reach the receiver (a
  // Transfer-Encoding next to our Content-Length is request smuggling).
  const hopByHop = {
    'Transfer-Encoding': 'chunked', TE: 'trailers', Trailer: 'X-Late', Upgrade: 'h2c', Expect: '100-continue', 'Keep-Alive': 'timeout=5',
    Connection: 'keep-alive, X-Team', 'Proxy-Connection': 'keep-alive', 'Proxy-Authorization': 'Basic eDp5', 'Proxy-Other': '1',
  };
  const expectFramedByLength = (got: { headers: Record<string, unknown>; raw: Buffer }, body: string): void => {
    for (const name of ['transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-other']) {
      expect(got.headers, name).not.toHaveProperty(name);
    }
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(got.raw.toString('utf8')).toBe(body);
  };

  it('when the user headers hold Transfer-Encoding and other hop-by-hop headers, then none reaches the receiver and the body is framed by Content-Length', async () => {
    const p = prepared('/ok', { headers: { ...hopByHop, 'X-Team': 'blue' } });
    const before = receiver.seen.length;
    const outcome = await sendDelivery(client, p, { mode: 'signature', secret: 'whsec_1' }, { timeoutMs: 5000, now });
    expect(outcome.kind).toBe('success');
    const got = receiver.seen[before]!;
    expectFramedByLength(got, p.body);
    expect(got.headers['x-team']).toBe('blue');
    expect(Object.keys(outcome.data.headers).map((k) => k.toLowerCase())).not.toContain('transfer-encoding');
  });

  it('when a caller hands the outbound client hop-by-hop headers directly, then the client drops them too', async () => {
    const p = prepared('/ok');
    const raw: PreparedDelivery = { ...p, headers: { ...p.headers, ...hopByHop } };
    const before = receiver.seen.length;
    const outcome = await sendDelivery(client, raw, { mode: 'signature', secret: 'whsec_1' }, { timeoutMs: 5000, now });
    expect(outcome.kind).toBe('success');
    expectFramedByLength(receiver.seen[before]!, p.body);
  });
});
