// Webhooks (reference accounts §9) and the events log (§10): request bodies, the objects answered,
// and the event-type vocabulary. Unknown fields are ignored (as the reference's clients expect);
// every string goes through the text presets.
import { z } from 'zod';
import { int, ints } from './numbers.ts';
import { jsonObject, jsonValue, text, textRecord, texts, TEXT_LIMITS } from './text.ts';

const DOMAINS = ['queries', 'testsets', 'workflows', 'environments'] as const;
const REVISION_ACTIONS = ['retrieved', 'fetched', 'queried', 'logged', 'committed'] as const;

/** The event types a subscription can ask for (§9.1). */
export const WEBHOOK_EVENT_TYPES = [
  'webhooks.subscriptions.tested', 'traces.fetched', 'traces.queried', 'testcases.fetched', 'testcases.queried',
  ...DOMAINS.flatMap((d) => REVISION_ACTIONS.map((a) => `${d}.revisions.${a}` as const)),
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Every type of the events log (§10): `unknown` and the subscribable ones. */
export const PLATFORM_EVENT_TYPES = ['unknown', ...WEBHOOK_EVENT_TYPES] as const;
export type PlatformEventType = (typeof PLATFORM_EVENT_TYPES)[number];
export const REQUEST_TYPES = ['unknown', 'router', 'worker'] as const;

/** Ids: any UUID spelling, answered in canonical lower case. */
export const uuidRef = z.uuid({ error: 'value is not a valid uuid' }).transform((s) => s.toLowerCase());
const dateTime = z.iso.datetime({ offset: true, local: true, error: 'value is not a valid ISO 8601 date-time' });

/** Windowing (§9.2): time bounds, cursor, page size, order. */
export const windowing = z.object({
  newest: dateTime.nullish(),
  oldest: dateTime.nullish(),
  next: uuidRef.nullish(),
  limit: ints.int32.nullish(),
  order: z.enum(['ascending', 'descending']).nullish(),
  interval: int({ min: 1 }).nullish(),
  rate: z.number().min(0).max(1).nullish(),
});
export type Windowing = z.infer<typeof windowing>;

const webhookUrl = texts.url.refine((u) => {
  try { const p = new URL(u); return (p.protocol === 'http:' || p.protocol === 'https:') && p.hostname !== ''; } catch { return false; }
}, { error: 'value is not a valid http(s) URL' });

export const webhookData = z.object({
  url: webhookUrl,
  headers: textRecord(text({ max: TEXT_LIMITS.shortText * 8 })).nullish(),
  payload_fields: jsonValue.nullish(),
  auth_mode: z.enum(['signature', 'authorization']).nullish(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)).max(WEBHOOK_EVENT_TYPES.length * 4).nullish(),
});
export type WebhookData = z.infer<typeof webhookData>;

const flags = z.object({ is_active: z.boolean().nullish() }).nullish();
const subscriptionFields = {
  name: texts.name.nullish(),
  description: texts.description.nullish(),
  flags,
  tags: jsonObject.nullish(),
  meta: jsonObject.nullish(),
  data: webhookData,
  secret: texts.secret.nullish(),
};

export const webhookCreate = z.object({ subscription: z.object(subscriptionFields) });
export type WebhookCreate = z.infer<typeof webhookCreate>;
export const webhookEdit = z.object({ subscription: z.object({ id: uuidRef, ...subscriptionFields }) });
export type WebhookEdit = z.infer<typeof webhookEdit>;
export const webhookQuery = z.object({
  subscription: z.object({ name: texts.name.nullish(), description: texts.description.nullish(), tags: jsonObject.nullish(), flags, meta: jsonObject.nullish() }).nullish(),
  include_archived: z.boolean().nullish(),
  windowing: windowing.nullish(),
});
export type WebhookQuery = z.infer<typeof webhookQuery>;
/** Exactly one of `subscription_id` or `subscription` (a draft, with or without an id): checked by the route (400). */
export const webhookTest = z.object({
  subscription_id: uuidRef.nullish(),
  subscription: z.object({ id: uuidRef.nullish(), ...subscriptionFields }).nullish(),
});
export type WebhookTest = z.infer<typeof webhookTest>;

/** A delivery's or an event's status (§9.4). */
export const deliveryStatus = z.object({
  timestamp: dateTime.nullish(),
  type: texts.shortText.nullish(),
  code: texts.shortText.nullish(),
  message: texts.description.nullish(),
  stacktrace: texts.description.nullish(),
});
export type DeliveryStatus = z.infer<typeof deliveryStatus>;

export const deliveryData = z.object({
  event_type: texts.shortText.nullish(),
  url: texts.url,
  headers: textRecord(text({ max: TEXT_LIMITS.shortText * 8 })).nullish(),
  payload: jsonValue.nullish(),
  response: z.object({ status_code: int({ min: 0, max: 999 }).nullish(), body: texts.description.nullish() }).nullish(),
  error: texts.description.nullish(),
});
export type DeliveryData = z.infer<typeof deliveryData>;

export const deliveryCreate = z.object({
  delivery: z.object({ id: uuidRef.nullish(), status: deliveryStatus, data: deliveryData.nullish(), subscription_id: uuidRef, event_id: uuidRef }),
});
export type DeliveryCreate = z.infer<typeof deliveryCreate>;
export const deliveryQuery = z.object({
  delivery: z.object({ status: deliveryStatus.partial().nullish(), subscription_id: uuidRef.nullish(), event_id: uuidRef.nullish() }).nullish(),
  include_archived: z.boolean().nullish(),
  windowing: windowing.nullish(),
});
export type DeliveryQuery = z.infer<typeof deliveryQuery>;

/** POST /events/query (§10): the body itself. */
export const eventQuery = z.object({
  event: z.object({
    request_type: z.enum(REQUEST_TYPES).nullish(),
    request_id: uuidRef.nullish(),
    event_type: z.enum(PLATFORM_EVENT_TYPES).nullish(),
    event_id: uuidRef.nullish(),
  }).nullish(),
  windowing: windowing.nullish(),
});
export type EventQuery = z.infer<typeof eventQuery>;

// ---- answers (nulls omitted) ----

export interface WebhookSubscriptionView {
  id: string; created_at: string; updated_at?: string; created_by_id?: string; updated_by_id?: string;
  name?: string; description?: string; tags?: Record<string, unknown>; meta?: Record<string, unknown>;
  flags: { is_active: boolean };
  data: { url: string; headers?: Record<string, string>; payload_fields?: unknown; auth_mode?: string; event_types?: string[] };
  secret_id: string;
  /** The signing secret / Authorization value in clear: on create, fetch, edit, start, stop; never on query. */
  secret?: string;
}

export interface WebhookDeliveryView {
  id: string; created_at: string; updated_at?: string;
  status: { timestamp: string; type?: string; code?: string; message?: string; stacktrace?: string };
  data?: {
    event_type?: string; url: string; headers?: Record<string, string>; payload?: unknown;
    response?: { status_code?: number; body?: string }; error?: string; attempts?: number;
  };
  subscription_id: string; event_id: string;
}

export interface PlatformEventView {
  request_id: string; event_id: string; request_type: string; event_type: string; timestamp: string;
  status_code?: string; status_message?: string; attributes?: Record<string, unknown>; created_at?: string;
}
