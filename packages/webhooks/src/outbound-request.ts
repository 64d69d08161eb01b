// The outbound webhook request (reference accounts §9.6), before anything is sent: the payload
// (template resolved against the context), its canonical bytes, and the headers — the user's, less
// the names we own, plus ours. Authentication is added per attempt (`authHeaders`: the signature
// carries the attempt's time), and `redactHeaders` is what gets recorded.
import { canonicalJson } from './canonical-json.ts';
import { deliveryContext, type SubscriptionForDelivery, type WebhookEventFact } from './context.ts';
import { resolvePayload } from './payload-template.ts';
import { signatureHeader } from './signature.ts';

/** User headers with these (lower-cased) names are dropped: they are ours to set. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'content-type', 'content-length', 'host', 'user-agent', 'x-agenta-event-type', 'x-agenta-delivery-id',
  'x-agenta-event-id', 'x-agenta-signature', 'idempotency-key', 'authorization',
]);

export interface PreparedDelivery {
  deliveryId: string;
  eventId: string;
  eventType: string;
  url: string;
  payload: unknown;
  /** `canonicalJson(payload)`: the bytes sent and signed. */
  body: string;
  /** Everything but authentication. */
  headers: Record<string, string>;
}

export interface PrepareDeliveryInput {
  deliveryId: string;
  event: WebhookEventFact;
  subscription: SubscriptionForDelivery;
  projectId: string;
}

// RFC 9110 token / field-value: a header Node would refuse to send is dropped rather than failing
// every attempt (the API's text presets should keep such values out in the first place).
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function prepareDelivery(input: PrepareDeliveryInput): PreparedDelivery {
  const { deliveryId, event, subscription, projectId } = input;
  const payload = resolvePayload(subscription.payload_fields, deliveryContext(event, subscription, projectId));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(subscription.headers ?? {})) {
    if (typeof value !== 'string' || RESERVED_HEADERS.has(name.toLowerCase())) continue;
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) continue;
    headers[name] = value;
  }
  Object.assign(headers, {
    'Content-Type': 'application/json',
    'User-Agent': 'Agenta-Webhook/1.0',
    'X-Agenta-Event-Type': event.event_type,
    'X-Agenta-Delivery-Id': deliveryId,
    'X-Agenta-Event-Id': event.event_id,
    'Idempotency-Key': deliveryId,
  });
  return { deliveryId, eventId: event.event_id, eventType: event.event_type, url: subscription.url, payload, body: canonicalJson(payload), headers };
}

export type AuthMode = 'signature' | 'authorization';

/** The headers of one attempt: the prepared ones plus the signature (signed at `unixSeconds`) or the raw Authorization value. */
export function authHeaders(prepared: PreparedDelivery, mode: AuthMode, secret: string, unixSeconds: number): Record<string, string> {
  if (mode === 'authorization') return { ...prepared.headers, Authorization: secret };
  return { ...prepared.headers, 'X-Agenta-Signature': signatureHeader(secret, prepared.body, unixSeconds) };
}

const REDACTED = new Set(['authorization', 'x-agenta-signature']);

/** The headers as recorded: credentials replaced by "[REDACTED]". */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, REDACTED.has(k.toLowerCase()) ? '[REDACTED]' : v]));
}
