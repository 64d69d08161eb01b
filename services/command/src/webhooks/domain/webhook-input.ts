// What a webhook subscription request becomes (reference accounts §9.1–§9.3): the full-replace
// subscription the events carry, the answer shape (nulls omitted), the query's windowing, and the
// rules checked before any event (a secret in authorization mode that can be sent as a header
// value, a resolvable payload template, tags and meta of at most 64 KiB each).
//
// Why the size of tags and meta is capped: both are part of every delivery's context (the whole
// payload without a template, `$.subscription.meta` with one), and a delivery's payload is capped
// at 1 MiB (@llm/webhooks MAX_PAYLOAD_BYTES); 64 KiB each keeps the context of an ordinary event
// well within it, so only a template that copies the context many times hits that cap.
import { validateHeaderValue } from 'node:http';
import type { WebhookRow, WebhookFilter } from '@llm/account-model';
import type { WebhookCreate, WebhookData, WebhookQuery, WebhookSubscriptionView } from '@llm/contracts';
import { invalid } from '@llm/errors';
import type { WebhookInfo } from '@llm/events';
import { RequestValidationError } from '@llm/http';
import { templateProblem } from '@llm/webhooks';

export type AuthMode = 'signature' | 'authorization';
type Json = Record<string, unknown>;

/** A subscription as it is stored: every field decided (a PUT replaces them all). */
export interface Subscription {
  id: string;
  projectId: string;
  name: string | null;
  description: string | null;
  tags: Json | null;
  meta: Json | null;
  isActive: boolean;
  url: string;
  headers: Record<string, string> | null;
  /** undefined = no template (the payload is the whole context). */
  payloadFields: unknown;
  authMode: AuthMode;
  /** null = every subscribable event type; [] = none. */
  eventTypes: string[] | null;
  secretId: string;
}

/** The fields of a create / edit / draft body (all optional but `data`). */
export type SubscriptionFields = WebhookCreate['subscription'];

export const authModeOf = (data: Pick<WebhookData, 'auth_mode'>): AuthMode => data.auth_mode ?? 'signature';

/** A caller's secret, '' counting as none. */
export const givenSecret = (s: string | null | undefined): string | undefined => (s ? s : undefined);

/** The most UTF-8 bytes of JSON a subscription's `tags`, and its `meta`, may take. */
export const SUBSCRIPTION_JSON_MAX_BYTES = 64 * 1024;

/**
 * §9.3: authorization mode sends the secret as the Authorization header, so there must be one, and
 * it must be sendable as a header value (checked here rather than failing every attempt).
 */
export function requireSecretFor(mode: AuthMode, secret: string | undefined): void {
  if (mode !== 'authorization') return;
  if (secret === undefined) throw invalid('webhook_secret_required', "A secret is required when auth_mode is 'authorization'");
  requireSendableSecret(secret);
}

// Visible ASCII, space and tab (RFC 9110 field-value without obs-text, which Node would send as Latin-1).
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/** In authorization mode the secret is a header value: no CR, LF, NUL, other control or non-ASCII characters. */
export function requireSendableSecret(secret: string): void {
  let ok = HEADER_VALUE.test(secret);
  try {
    validateHeaderValue('authorization', secret);
  } catch {
    ok = false;
  }
  if (!ok) {
    throw invalid('webhook_secret_invalid', "In 'authorization' mode the secret is sent as the Authorization header: it may hold only visible ASCII characters, spaces and tabs (no line breaks, control or non-ASCII characters)");
  }
}

/** A payload template that cannot be resolved (too deep, a malformed path) is a 422 on the field. */
export function checkTemplate(payloadFields: unknown, loc: Array<string | number>): void {
  if (payloadFields === undefined || payloadFields === null) return;
  const problem = templateProblem(payloadFields);
  if (problem !== undefined) throw new RequestValidationError([{ loc: ['body', ...loc, 'data', 'payload_fields'], msg: problem, type: 'value_error' }]);
}

/**
 * Every rule on a create / edit / draft body at once: the template (422), tags and meta at most
 * SUBSCRIPTION_JSON_MAX_BYTES each (422), and in authorization mode a given secret that can be
 * sent as a header value (400; a missing one is `requireSecretFor`'s, as an edit may keep the stored one).
 */
export function checkSubscriptionFields(f: SubscriptionFields, loc: Array<string | number>): void {
  checkTemplate(f.data.payload_fields, loc);
  const tooLarge = (['tags', 'meta'] as const)
    .filter((k) => f[k] !== undefined && f[k] !== null && Buffer.byteLength(JSON.stringify(f[k])) > SUBSCRIPTION_JSON_MAX_BYTES)
    .map((k) => ({ loc: ['body', ...loc, k], msg: `${k} must be at most ${SUBSCRIPTION_JSON_MAX_BYTES} bytes of JSON`, type: 'value_error' }));
  if (tooLarge.length > 0) throw new RequestValidationError(tooLarge);
  const secret = givenSecret(f.secret);
  if (authModeOf(f.data) === 'authorization' && secret !== undefined) requireSendableSecret(secret);
}

/** The stored form of a request's fields (full replace: omitted = null, flags omitted = active). */
export function subscriptionOf(f: SubscriptionFields, ids: { id: string; projectId: string; secretId: string }, isActive = f.flags?.is_active ?? true): Subscription {
  return {
    ...ids,
    name: f.name ?? null,
    description: f.description ?? null,
    tags: f.tags ?? null,
    meta: f.meta ?? null,
    isActive,
    url: f.data.url,
    headers: f.data.headers ?? null,
    payloadFields: f.data.payload_fields ?? undefined,
    authMode: authModeOf(f.data),
    eventTypes: f.data.event_types ?? null,
  };
}

/** The stored subscription as read back (start/stop change only `isActive`). */
export function subscriptionFromRow(row: WebhookRow): Subscription {
  return {
    id: row.id, projectId: row.project_id, name: row.name, description: row.description, tags: row.tags, meta: row.meta,
    isActive: row.is_active, url: row.url, headers: row.headers, payloadFields: row.payload_fields ?? undefined,
    authMode: row.auth_mode === 'authorization' ? 'authorization' : 'signature', eventTypes: row.event_types, secretId: row.secret_id,
  };
}

const jsonOrEmpty = (v: unknown): string => (v === undefined || v === null ? '' : JSON.stringify(v));

/** The event form (WebhookInfo): JSON fields as text ('' = null), `all_event_types` for a null list. */
export function webhookInfo(s: Subscription): WebhookInfo {
  return {
    subscription_id: s.id, project_id: s.projectId, name: s.name ?? '', description: s.description ?? '',
    tags_json: jsonOrEmpty(s.tags), meta_json: jsonOrEmpty(s.meta), is_active: s.isActive, url: s.url,
    headers_json: jsonOrEmpty(s.headers), payload_fields_json: jsonOrEmpty(s.payloadFields), auth_mode: s.authMode,
    all_event_types: s.eventTypes === null, event_types: s.eventTypes ?? [], secret_id: s.secretId,
  };
}

/** The answer (nulls omitted); `secret` only where the route shows it (never on query). */
export function subscriptionView(row: WebhookRow, secret?: string): WebhookSubscriptionView {
  return {
    id: row.id,
    created_at: row.created_at.toISOString(),
    ...(row.updated_at ? { updated_at: row.updated_at.toISOString() } : {}),
    ...(row.created_by_id ? { created_by_id: row.created_by_id } : {}),
    ...(row.updated_by_id ? { updated_by_id: row.updated_by_id } : {}),
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.tags !== null ? { tags: row.tags } : {}),
    ...(row.meta !== null ? { meta: row.meta } : {}),
    flags: { is_active: row.is_active },
    data: {
      url: row.url,
      ...(row.headers !== null ? { headers: row.headers } : {}),
      ...(row.payload_fields !== null && row.payload_fields !== undefined ? { payload_fields: row.payload_fields } : {}),
      auth_mode: row.auth_mode,
      ...(row.event_types !== null ? { event_types: row.event_types } : {}),
    },
    secret_id: row.secret_id,
    ...(secret !== undefined ? { secret } : {}),
  };
}

/** §9.2: name/description substrings, tags containment; flags, meta and include_archived ignored; id-descending windows. */
export function webhookFilterOf(q: WebhookQuery): WebhookFilter {
  const s = q.subscription;
  const w = q.windowing;
  return {
    ...(s?.name ? { name: s.name } : {}),
    ...(s?.description ? { description: s.description } : {}),
    ...(s?.tags ? { tags: s.tags } : {}),
    ...(w?.next ? { before: w.next } : {}),
    ...(w?.limit !== undefined && w.limit !== null ? { limit: Math.max(1, w.limit) } : {}),
  };
}

/** The name of a subscription's vault secret (§9.1). */
export const secretNameOf = (name: string | null | undefined): string => `webhook-${name || 'subscription'}`;
