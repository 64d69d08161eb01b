// The delivery context (reference accounts §9.6): what a payload template is resolved against and,
// without a template, the payload itself. Its shape is fixed, so every key is always present and
// a subscription field that is not set is null (not omitted): receivers and templates see the same
// keys for every subscription, and `$.subscription.name` resolves to null either way.

/** An event as a subscriber sees it (`timestamp`/`created_at` are ISO 8601 date-times). */
export interface WebhookEventFact {
  event_id: string;
  event_type: string;
  timestamp: string;
  created_at: string;
  attributes: Record<string, unknown>;
}

/** The subscription as a delivery needs it; `id` is `"draft"` for a test of an unsaved draft (§9.5). */
export interface SubscriptionForDelivery {
  id: string;
  name?: string | null;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
  created_at?: string | null;
  updated_at?: string | null;
  url: string;
  headers?: Record<string, string> | null;
  payload_fields?: unknown;
  auth_mode: 'signature' | 'authorization';
}

export interface DeliveryContext {
  event: { event_id: string; event_type: string; timestamp: string; created_at: string; attributes: Record<string, unknown> };
  subscription: {
    id: string;
    name: string | null;
    tags: Record<string, unknown> | null;
    meta: Record<string, unknown> | null;
    created_at: string | null;
    updated_at: string | null;
  };
  scope: { project_id: string };
}

export function deliveryContext(event: WebhookEventFact, subscription: Pick<SubscriptionForDelivery, 'id' | 'name' | 'tags' | 'meta' | 'created_at' | 'updated_at'>, projectId: string): DeliveryContext {
  return {
    event: {
      event_id: event.event_id,
      event_type: event.event_type,
      timestamp: event.timestamp,
      created_at: event.created_at,
      attributes: event.attributes,
    },
    subscription: {
      id: subscription.id,
      name: subscription.name ?? null,
      tags: subscription.tags ?? null,
      meta: subscription.meta ?? null,
      created_at: subscription.created_at ?? null,
      updated_at: subscription.updated_at ?? null,
    },
    scope: { project_id: projectId },
  };
}
