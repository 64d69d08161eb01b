// A platform event (platform.events.v1, `platform.event.recorded`) as a subscriber sees it
// (reference accounts §9.6: `{event_id, event_type, timestamp, created_at, attributes}`), and a
// subscription row as a delivery needs it. Pure.
import type { WebhookRow } from '@llm/account-model';
import type { DecodedEvent } from '@llm/events';
import type { SubscriptionForDelivery, WebhookEventFact } from '@llm/webhooks';

export function webhookEventOf(e: DecodedEvent<'platform.event.recorded'>): WebhookEventFact {
  const at = new Date(Math.floor(e.timeUs / 1000)).toISOString();
  return { event_id: e.eventId.toLowerCase(), event_type: e.payload.event_type, timestamp: at, created_at: at, attributes: attributesOf(e.payload.attributes_json) };
}

/** The event's attributes; anything but a JSON object (or nothing) is an empty object. */
function attributesOf(json: string): Record<string, unknown> {
  if (!json) return {};
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {};
  } catch {
    return {};
  }
}

export function subscriptionForDelivery(s: WebhookRow): SubscriptionForDelivery {
  return {
    id: s.id, name: s.name, tags: s.tags, meta: s.meta,
    created_at: s.created_at.toISOString(), updated_at: s.updated_at?.toISOString() ?? null,
    url: s.url, headers: s.headers, payload_fields: s.payload_fields ?? undefined,
    auth_mode: s.auth_mode === 'authorization' ? 'authorization' : 'signature',
  };
}
