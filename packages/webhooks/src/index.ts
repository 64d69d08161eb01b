// Webhook deliveries: the outbound request format (reference accounts §9.6), the outcome rules
// (§9.7), and the one way a delivery's state is recorded.
export { appendDeliveryRecord, awaitDeliveryRecord, type DeliveryRecord } from './delivery-record.ts';
export { canonicalJson } from './canonical-json.ts';
export { signatureHeader, verifySignature, generateSigningSecret, type VerifyOptions } from './signature.ts';
export { deliveryIdOf } from './delivery-id.ts';
export { resolvePayload, templateProblem, jsonPath, jsonPointer, TEMPLATE_MAX_DEPTH } from './payload-template.ts';
export { deliveryContext, type DeliveryContext, type WebhookEventFact, type SubscriptionForDelivery } from './context.ts';
export {
  prepareDelivery, authHeaders, redactHeaders, RESERVED_HEADERS,
  type PreparedDelivery, type PrepareDeliveryInput, type AuthMode,
} from './outbound-request.ts';
export { sendDelivery, RESPONSE_BODY_CHARS, RESPONSE_MAX_BYTES, type AttemptOutcome, type SendOptions } from './send.ts';
export { retryDelayMs, isFinalAttempt, type RetryPolicy } from './retry.ts';
export { webhookEnv, retryPolicyFromEnv, type WebhookEnv } from './webhook-env.ts';
