// The readers of the account-side tables that belong to no aggregate: the projector's event outcomes,
// the vault's wrapped keys, the operator's entity lookups, webhook deliveries (the dispatcher's
// table) and retention horizons. Each aggregate's own tables are read through its folder in
// @llm/account-model.
export { readEventOutcome, type EventOutcome } from './events.ts';
export { readWrappedKey, listWrappedKeys, countWrappedKeysByKeyId, type WrappedKeyRow } from './secret-keys.ts';
export { findApiKeyById, type AdminApiKeyRow } from './admin-entities.ts';
export { readDelivery, readDeliveryOf, deliveryIdTaken, queryDeliveries, deliveryView, type WebhookDeliveryRow, type DeliveryFilter } from './webhook-deliveries.ts';
export { projectHorizonsPage, projectRetentionsPage, readProjectRetention, retentionHorizons, type ProjectRetentionRow, type RetentionHorizons } from './retention.ts';
