// Delivery ids (reference accounts §9.7): deterministic, so a re-delivered event derives the same
// id for the same subscription, the projection upserts one row, and receivers can deduplicate with
// `Idempotency-Key`. UUIDv5(namespace = UUIDv5("webhooks.delivery", UUIDv5("agenta", DNS)),
// name = "<event_id>:<subscription_id>"), the ids in lower case (as Python's `str(uuid)` writes them).
import { NAMESPACE_DNS, uuidv5 } from '@llm/events';

const AGENTA = uuidv5('agenta', NAMESPACE_DNS);
const DELIVERIES = uuidv5('webhooks.delivery', AGENTA);

export function deliveryIdOf(eventId: string, subscriptionId: string): string {
  return uuidv5(`${eventId.toLowerCase()}:${subscriptionId.toLowerCase()}`, DELIVERIES);
}
