// The outbound webhook request (reference accounts §9.6), before anything is sent: the payload
// (template resolved against the context), its canonical bytes, and the headers — the user's, less
// the names we own and the hop-by-hop / framing ones, plus ours. Authentication is added per
// attempt (`authHeaders`: the signature carries the attempt's time), and `redactHeaders` is what
// gets recorded.
//
// A payload over MAX_PAYLOAD_BYTES (1 MiB of canonical JSON; see payload-template.ts) cannot be
// sent: `prepareDelivery` throws `PayloadTooLargeError` (the only error it throws) and the caller
// records the delivery as failed for good with `unsentOutcome(input, err)`: status code "400",
// error "payload too large: …", no attempt made, no retry. The dispatcher does so when it fans an
// event out, the test route answers 200 with that failed delivery.
import { canonicalJson } from './canonical-json.ts';
import { deliveryContext, type SubscriptionForDelivery, type WebhookEventFact } from './context.ts';
import { MAX_PAYLOAD_BYTES, PayloadTooLargeError, resolvePayload } from './payload-template.ts';
import type { AttemptOutcome } from './send.ts';
import { signatureHeader } from './signature.ts';

/** User headers with these (lower-cased) names are dropped: they are ours to set. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'content-type', 'content-length', 'host', 'user-agent', 'x-agenta-event-type', 'x-agenta-delivery-id',
  'x-agenta-event-id', 'x-agenta-signature', 'idempotency-key', 'authorization',
]);

/**
 * User headers with these names (and any `proxy-*`) are dropped too: they frame the message or
 * speak to the connection, not to the receiver (a user `Transfer-Encoding` next to our
 * Content-Length is how requests get smuggled).
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'transfer-encoding', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade', 'expect', 'proxy-authorization', 'proxy-connection',
]);

/** Whether a user header of this name is left out of the request. */
export function isDroppedHeader(name: string): boolean {
  const n = name.toLowerCase();
  return RESERVED_HEADERS.has(n) || HOP_BY_HOP_HEADERS.has(n) || n.startsWith('proxy-');
}

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

/** The request for this delivery. Throws `PayloadTooLargeError` (only) when the payload does not fit. */
export function prepareDelivery(input: PrepareDeliveryInput): PreparedDelivery {
  const { deliveryId, event, subscription, projectId } = input;
  const payload = resolvePayload(subscription.payload_fields, deliveryContext(event, subscription, projectId), MAX_PAYLOAD_BYTES);
  const body = canonicalJson(payload);
  // The budget counts matches only; the template's own keys and literals are counted here.
  if (body.length > MAX_PAYLOAD_BYTES) throw new PayloadTooLargeError(MAX_PAYLOAD_BYTES, 'the payload');
  return { deliveryId, eventId: event.event_id, eventType: event.event_type, url: subscription.url, payload, body, headers: requestHeaders(input) };
}

function requestHeaders({ deliveryId, event, subscription }: PrepareDeliveryInput): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(subscription.headers ?? {})) {
    if (typeof value !== 'string' || isDroppedHeader(name)) continue;
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) continue;
    headers[name] = value;
  }
  return Object.assign(headers, {
    'Content-Type': 'application/json',
    'User-Agent': 'Agenta-Webhook/1.0',
    'X-Agenta-Event-Type': event.event_type,
    'X-Agenta-Delivery-Id': deliveryId,
    'X-Agenta-Event-Id': event.event_id,
    'Idempotency-Key': deliveryId,
  });
}

/**
 * The final outcome of a delivery that could not be prepared (`PayloadTooLargeError`): failed,
 * code "400", the error's message, the headers it would have had, no payload; nothing was sent.
 */
export function unsentOutcome(input: PrepareDeliveryInput, err: PayloadTooLargeError, at: Date = new Date()): AttemptOutcome {
  return {
    kind: 'failed',
    status: { timestamp: at.toISOString(), code: err.code, message: 'failed' },
    data: { event_type: input.event.event_type, url: input.subscription.url, headers: requestHeaders(input), payload: null, error: err.message },
  };
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
