// A prepared request as the schedule stores it (webhook_dispatch_tasks.request): everything but the
// payload, which is the body parsed back (the body is canonical JSON, printable ASCII only, so it
// always fits in jsonb; a payload string holding U+0000 would not).
import type { PreparedDelivery } from '@llm/webhooks';

export type StoredRequest = Omit<PreparedDelivery, 'payload'>;

export const storedRequest = (p: PreparedDelivery): StoredRequest => ({
  deliveryId: p.deliveryId, eventId: p.eventId, eventType: p.eventType, url: p.url, body: p.body, headers: p.headers,
});

export const preparedOf = (s: StoredRequest): PreparedDelivery => ({ ...s, payload: JSON.parse(s.body) as unknown });
