// The fan-out's pure pieces: a platform event as a subscriber sees it, a subscription row as a
// delivery needs it, and the schedule's stored form of a prepared request.
import { describe, expect, it } from 'vitest';
import type { WebhookRow } from '@llm/account-model';
import type { DecodedEvent } from '@llm/events';
import { prepareDelivery } from '@llm/webhooks';
import { subscriptionForDelivery, webhookEventOf } from '../src/fan-out/webhook-event.ts';
import { preparedOf, storedRequest } from '../src/schedule/stored-request.ts';

const event = (attributes_json: string): DecodedEvent<'platform.event.recorded'> => ({
  eventId: '0190F2A0-0000-7000-8000-000000000001', type: 'platform.event.recorded', schemaVersion: 1, projectId: 'p', organizationId: 'o',
  timeUs: 1_700_000_000_123_456, requestId: 'r', actorId: 'u', aggregateId: '', expectedVersion: 0,
  payload: { event_type: 'traces.queried', request_type: 'unknown', status_code: '', status_message: '', attributes_json, user_id: 'u' },
});

const row: WebhookRow = {
  id: 's1', project_id: 'p', name: null, description: null, tags: { a: 1 }, meta: null, is_active: true, url: 'https://example.com/h',
  headers: { 'X-A': '1' }, payload_fields: null, auth_mode: 'authorization', event_types: null, secret_id: 'k',
  created_at: new Date('2024-01-01T00:00:00Z'), updated_at: null, created_by_id: null, updated_by_id: null, version: 1,
};

describe('fan-out pieces', () => {
  it('when a platform event is read, then its id is lower case, its time is the envelope time, and its attributes an object', () => {
    const e = webhookEventOf(event('{"count":2,"user_id":"u"}'));
    expect(e).toEqual({
      event_id: '0190f2a0-0000-7000-8000-000000000001', event_type: 'traces.queried', timestamp: '2023-11-14T22:13:20.123Z',
      created_at: '2023-11-14T22:13:20.123Z', attributes: { count: 2, user_id: 'u' },
    });
    expect(webhookEventOf(event('')).attributes).toEqual({});
    expect(webhookEventOf(event('[1]')).attributes).toEqual({});
    expect(webhookEventOf(event('{nope')).attributes).toEqual({});
  });

  it('when a subscription row is mapped, then dates are ISO strings, no template means the whole context, and the auth mode is kept', () => {
    expect(subscriptionForDelivery(row)).toEqual({
      id: 's1', name: null, tags: { a: 1 }, meta: null, created_at: '2024-01-01T00:00:00.000Z', updated_at: null,
      url: 'https://example.com/h', headers: { 'X-A': '1' }, payload_fields: undefined, auth_mode: 'authorization',
    });
    expect(subscriptionForDelivery({ ...row, auth_mode: 'odd' }).auth_mode).toBe('signature');
  });

  it('when a prepared request is stored and read back, then it is the same request (the payload parsed back from the body)', () => {
    const prepared = prepareDelivery({ deliveryId: 'd', event: webhookEventOf(event('{"s":"a\\u0000b é"}')), subscription: subscriptionForDelivery(row), projectId: 'p' });
    const stored = storedRequest(prepared);
    expect(stored).not.toHaveProperty('payload');
    expect(JSON.stringify(stored)).not.toContain('\\u0000b é');
    expect(preparedOf(JSON.parse(JSON.stringify(stored)))).toEqual(prepared);
  });
});
