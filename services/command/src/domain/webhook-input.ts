// What a webhook subscription request becomes (reference accounts §9.1–§9.3): the full-replace
// subscription the events carry, the answer shape (nulls omitted), the query's windowing, and the
// rules checked before any event (a secret in authorization mode, a resolvable payload template).
import type { WebhookRow, WebhookFilter } from '@llm/accounts-read';
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

/** §9.3: authorization mode sends the secret as the Authorization header, so there must be one. */
export function requireSecretFor(mode: AuthMode, secret: string | undefined): void {
  if (mode === 'authorization' && secret === undefined) {
    throw invalid('webhook_secret_required', "A secret is required when auth_mode is 'authorization'");
  }
}

/** A payload template that cannot be resolved (too deep, a malformed path) is a 422 on the field. */
export function checkTemplate(payloadFields: unknown, loc: Array<string | number>): void {
  if (payloadFields === undefined || payloadFields === null) return;
  const problem = templateProblem(payloadFields);
  if (problem !== undefined) throw new RequestValidationError([{ loc: ['body', ...loc, 'data', 'payload_fields'], msg: problem, type: 'value_error' }]);
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
