// Webhook deliveries: the outbound request format (reference accounts §9.6), the outcome rules
// (§9.7), and the one way a delivery's state is recorded.
export { appendDeliveryRecord, awaitDeliveryRecord, type DeliveryRecord } from './delivery-record.ts';
