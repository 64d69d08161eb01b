import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/canonical-json.ts';
import { deliveryContext, type SubscriptionForDelivery, type WebhookEventFact } from '../src/context.ts';
import { authHeaders, prepareDelivery, redactHeaders, unsentOutcome } from '../src/outbound-request.ts';
import { MAX_PAYLOAD_BYTES, PayloadTooLargeError } from '../src/payload-template.ts';
import { verifySignature } from '../src/signature.ts';

const event: WebhookEventFact = {
  event_id: '0190a5b2-7c3e-7a10-8000-000000000001',
  event_type: 'webhooks.subscriptions.tested',
  timestamp: '2024-07-01T10:00:00.000Z',
  created_at: '2024-07-01T10:00:00.100Z',
  attributes: { subscription_id: 'draft', note: 'café' },
};
const subscription: SubscriptionForDelivery = {
  id: 'draft',
  url: 'https://hooks.example/in',
  auth_mode: 'signature',
  headers: { 'X-Team': 'blue', authorization: 'Bearer nope', 'Content-Type': 'text/plain', 'X-Agenta-Signature': 'forged', 'idempotency-KEY': 'x', 'Bad Name': 'v', 'X-Bad-Value': 'a\r\nInjected: 1' },
};
const deliveryId = '9ee5e94c-9bee-5093-81c2-ef8a0eb2ac3a';

describe('deliveryContext', () => {
  it('when subscription fields are absent, then the keys are present with null', () => {
    expect(deliveryContext(event, { id: 'draft' }, 'p1')).toEqual({
      event: { event_id: event.event_id, event_type: event.event_type, timestamp: event.timestamp, created_at: event.created_at, attributes: event.attributes },
      subscription: { id: 'draft', name: null, tags: null, meta: null, created_at: null, updated_at: null },
      scope: { project_id: 'p1' },
    });
  });
});

describe('prepareDelivery', () => {
  it('when prepared, then reserved user headers are dropped and ours are set', () => {
    const p = prepareDelivery({ deliveryId, event, subscription, projectId: 'p1' });
    expect(p.headers).toEqual({
      'X-Team': 'blue',
      'Content-Type': 'application/json',
      'User-Agent': 'Agenta-Webhook/1.0',
      'X-Agenta-Event-Type': 'webhooks.subscriptions.tested',
      'X-Agenta-Delivery-Id': deliveryId,
      'X-Agenta-Event-Id': event.event_id,
      'Idempotency-Key': deliveryId,
    });
    expect(p).toMatchObject({ deliveryId, eventId: event.event_id, eventType: event.event_type, url: subscription.url });
  });

  it('when user headers frame the message or speak to the connection or a proxy, then they are dropped', () => {
    const hop = {
      'Transfer-Encoding': 'chunked', Connection: 'close', 'Keep-Alive': 'timeout=5', TE: 'trailers', Trailer: 'X-T', Upgrade: 'h2c',
      Expect: '100-continue', 'Proxy-Authorization': 'Basic eA==', 'Proxy-Connection': 'keep-alive', 'proxy-anything': '1', 'X-Kept': 'yes',
    };
    const p = prepareDelivery({ deliveryId, event, subscription: { ...subscription, headers: hop }, projectId: 'p1' });
    const userNames = Object.keys(p.headers).filter((k) => !/^(content-type|user-agent|x-agenta-|idempotency-key)/i.test(k));
    expect(userNames).toEqual(['X-Kept']);
  });

  it('when the payload is over the budget, then prepareDelivery throws PayloadTooLargeError and unsentOutcome is a final 400', () => {
    const input = { deliveryId, event, subscription: { ...subscription, payload_fields: Array.from({ length: 9000 }, () => '$') }, projectId: 'p1' };
    const big = { ...input, event: { ...event, attributes: { blob: 'b'.repeat(200_000) } } };
    let error: unknown;
    try {
      prepareDelivery(big);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    const at = new Date('2024-07-01T10:00:01.000Z');
    const outcome = unsentOutcome(big, error as PayloadTooLargeError, at);
    expect(outcome.kind).toBe('failed');
    expect(outcome.status).toEqual({ timestamp: at.toISOString(), code: '400', message: 'failed' });
    expect(outcome.data).toMatchObject({ event_type: event.event_type, url: subscription.url, payload: null });
    expect(outcome.data.error).toMatch(/^payload too large: /);
    expect(outcome.data.headers['X-Agenta-Delivery-Id']).toBe(deliveryId);
    // A literal as large as the budget is refused as well (the whole body counts).
    expect(() => prepareDelivery({ ...input, subscription: { ...subscription, payload_fields: { x: 'l'.repeat(MAX_PAYLOAD_BYTES) } } })).toThrow(PayloadTooLargeError);
  });

  it('when there is no template, then the body is the canonical JSON of the whole context', () => {
    const p = prepareDelivery({ deliveryId, event, subscription, projectId: 'p1' });
    expect(p.payload).toEqual(deliveryContext(event, subscription, 'p1'));
    expect(p.body).toBe(canonicalJson(p.payload));
    expect(p.body.startsWith('{"event":{"attributes":{"note":"caf\\u00e9","subscription_id":"draft"},"created_at"')).toBe(true);
    expect(p.body).toContain('"scope":{"project_id":"p1"}');
  });

  it('when a template is set, then the payload is the resolved template', () => {
    const p = prepareDelivery({ deliveryId, event, subscription: { ...subscription, payload_fields: { kind: '$.event.event_type', project: '/scope/project_id', fixed: 1 } }, projectId: 'p1' });
    expect(p.body).toBe('{"fixed":1,"kind":"webhooks.subscriptions.tested","project":"p1"}');
  });
});

describe('authHeaders and redactHeaders', () => {
  const p = prepareDelivery({ deliveryId, event, subscription, projectId: 'p1' });

  it('when in signature mode, then X-Agenta-Signature verifies over the body', () => {
    const h = authHeaders(p, 'signature', 'whsec', 1_700_000_000);
    expect(h.Authorization).toBeUndefined();
    expect(verifySignature('whsec', p.body, h['X-Agenta-Signature'], { now: 1_700_000_000 })).toBe(true);
    expect(p.headers['X-Agenta-Signature']).toBeUndefined();
  });

  it('when in authorization mode, then the raw secret is the Authorization value', () => {
    const h = authHeaders(p, 'authorization', 'Token abc', 1_700_000_000);
    expect(h.Authorization).toBe('Token abc');
    expect(h['X-Agenta-Signature']).toBeUndefined();
  });

  it('when recorded, then credentials are redacted whatever their case', () => {
    expect(redactHeaders({ authorization: 'a', 'X-AGENTA-SIGNATURE': 's', 'X-Team': 'blue' })).toEqual({ authorization: '[REDACTED]', 'X-AGENTA-SIGNATURE': '[REDACTED]', 'X-Team': 'blue' });
  });
});
