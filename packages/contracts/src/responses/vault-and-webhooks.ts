// zod schemas of the vault and webhook answers (reference accounts §6, §9, §10): the public secret
// (services/command secret-routes publicView), the webhook subscription and delivery views
// (subscriptionView, deliveryView) and the platform events of POST /events/query. The views omit
// nulls, so the optional fields here are absent rather than null.
import { z } from 'zod';
import { LOGIN_ATTEMPT_STATES } from '../subscription-login.ts';
import { PLATFORM_EVENT_TYPES, REQUEST_TYPES } from '../webhooks.ts';

const uuid = z.uuid();
const iso = z.string();
const jsonRecord = z.record(z.string(), z.unknown());

/** PublicSecretResponseDTO. */
export const publicSecretResponse = z.object({
  id: uuid,
  slug: z.string(),
  kind: z.enum(['provider_key', 'custom_provider', 'sso_provider', 'webhook_provider', 'custom_secret', 'subscription_provider']),
  header: z.object({ name: z.string().optional(), description: z.string().optional() }),
  /** The kind's data (secretDataByKind), its credentials removed when the secret is write-only: open per kind. */
  data: jsonRecord,
  lifecycle: z.object({ created_at: iso, updated_at: iso.optional(), updated_by_id: z.string().optional() }),
  write_only: z.boolean(),
  managed_by: z.string().optional(),
  value_status: z.object({ configured: z.boolean(), preview: z.string().optional() }),
});
/** GET /secrets (and /vault/v1/secrets). */
export const publicSecretsResponse = z.array(publicSecretResponse);

/** A subscription secret's sign-in attempt (start, poll, cancel): unset fields are sent as null. */
export const loginAttemptResponse = z.object({
  attempt_id: z.string(),
  state: z.enum(LOGIN_ATTEMPT_STATES),
  user_code: z.string().nullable(),
  verification_uri: z.string().nullable(),
  expires_at: iso.nullable(),
  poll_after_ms: z.number().nullable(),
  error: z.string().nullable(),
});
const version = z.number().int();
/** The runner's login as the server holds it: the provider's token set, open. */
const runnerLogin = jsonRecord.optional();
/** POST /secrets/{id}/subscription-login. */
export const subscriptionLoginPushResponse = z.object({
  version, generation: version, updated: z.boolean(), stale: z.boolean(), login: runnerLogin, reason: z.string().optional(),
});
/** POST /secrets/{id}/subscription-login/failure. */
export const subscriptionLoginFailureResponse = z.object({ stale: z.boolean(), version, generation: version, login: runnerLogin });

export const webhookSubscriptionView = z.object({
  id: uuid,
  created_at: iso,
  updated_at: iso.optional(),
  created_by_id: z.string().optional(),
  updated_by_id: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  tags: jsonRecord.optional(),
  meta: jsonRecord.optional(),
  flags: z.object({ is_active: z.boolean() }),
  data: z.object({
    url: z.string(),
    headers: z.record(z.string(), z.string()).optional(),
    /** The client's projection of the event into the payload: any JSON it chose. */
    payload_fields: z.unknown().optional(),
    auth_mode: z.enum(['signature', 'authorization']).optional(),
    event_types: z.array(z.string()).optional(),
  }),
  secret_id: uuid,
  /** In clear on create, fetch, edit, start and stop; never on query. */
  secret: z.string().optional(),
});
/** One subscription: create, fetch, edit, start, stop. */
export const webhookSubscriptionResponse = z.object({ count: z.literal(1), subscription: webhookSubscriptionView });
/** POST /webhooks/subscriptions/query. */
export const webhookSubscriptionsResponse = z.object({ count: z.number().int().min(0), subscriptions: z.array(webhookSubscriptionView) });

export const webhookDeliveryView = z.object({
  id: uuid,
  created_at: iso,
  updated_at: iso.optional(),
  status: z.object({ timestamp: iso, type: z.string().optional(), code: z.string().optional(), message: z.string().optional(), stacktrace: z.string().optional() }),
  data: z.object({
    event_type: z.string().optional(),
    url: z.string(),
    headers: z.record(z.string(), z.string()).optional(),
    /** The body that was (or would have been) sent: the subscription's payload projection. */
    payload: z.unknown().optional(),
    response: z.object({ status_code: z.number().int().optional(), body: z.string().optional() }).optional(),
    error: z.string().optional(),
    attempts: z.number().int().optional(),
  }).optional(),
  subscription_id: uuid,
  event_id: uuid,
});
/** One delivery: POST /webhooks/deliveries, GET /webhooks/deliveries/{id}, POST /webhooks/subscriptions/test. */
export const webhookDeliveryResponse = z.object({ count: z.literal(1), delivery: webhookDeliveryView });
/** POST /webhooks/deliveries/query. */
export const webhookDeliveriesResponse = z.object({ count: z.number().int().min(0), deliveries: z.array(webhookDeliveryView) });

/** POST /events/query: the project's platform events. */
export const platformEventsResponse = z.object({
  count: z.number().int().min(0),
  events: z.array(z.object({
    request_id: z.string(),
    event_id: z.string(),
    request_type: z.enum(REQUEST_TYPES),
    event_type: z.enum(PLATFORM_EVENT_TYPES),
    timestamp: iso,
    status_code: z.string().optional(),
    status_message: z.string().optional(),
    /** The event's own attributes (the changed entity's references): open per event type. */
    attributes: jsonRecord.optional(),
    created_at: iso.optional(),
  })),
});
