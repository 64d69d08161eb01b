// Webhook deliveries: the outbound request format (reference accounts §9.6), the outcome rules
// (§9.7), and the one way a delivery's state is recorded.
export { appendDeliveryRecord, awaitDeliveryRecord, recordDataJson, RECORD_DATA_MAX_BYTES, type DeliveryRecord } from './delivery-record.ts';
export { canonicalJson, canonicalJsonLength } from './canonical-json.ts';
export { signatureHeader, verifySignature, generateSigningSecret, type VerifyOptions } from './signature.ts';
export { deliveryIdOf } from './delivery-id.ts';
export {
  resolvePayload, templateProblem, jsonPath, jsonPointer, TEMPLATE_MAX_DEPTH, MAX_PAYLOAD_BYTES, PayloadTooLargeError, isPayloadTooLarge,
} from './payload-template.ts';
export { deliveryContext, type DeliveryContext, type WebhookEventFact, type SubscriptionForDelivery } from './context.ts';
export {
  prepareDelivery, unsentOutcome, authHeaders, redactHeaders, RESERVED_HEADERS, HOP_BY_HOP_HEADERS, isDroppedHeader,
  type PreparedDelivery, type PrepareDeliveryInput, type AuthMode,
} from './outbound-request.ts';
export { sendDelivery, RESPONSE_BODY_CHARS, RESPONSE_MAX_BYTES, type AttemptOutcome, type SendOptions } from './send.ts';
export { retryDelayMs, isFinalAttempt, type RetryPolicy } from './retry.ts';
export { webhookEnv, retryPolicyFromEnv, type WebhookEnv } from './webhook-env.ts';
