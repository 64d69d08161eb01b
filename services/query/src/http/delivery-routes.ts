// GET /webhooks/deliveries/{id}, POST /webhooks/deliveries/query (reference accounts §9.3, §9.4):
// the caller's project's deliveries from webhook_deliveries (the projection of
// webhooks.deliveries.v1). Query filters: status (its code, as text), subscription_id, event_id;
// windowing: created_at descending (then id) — ascending on request —, `newest`/`oldest` bounds,
// `next` = the id of the last delivery seen, `limit` (< 1 → 1). No windowing: every delivery.
import type { Request, RequestHandler } from 'express';
import { deliveryView, parseUuid, queryDeliveries, readDelivery, type DeliveryFilter } from '@llm/accounts-read';
import { deliveryQuery } from '@llm/contracts';
import { notFound } from '@llm/errors';
import { RequestValidationError, validate, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';

function deliveryIdOf(req: Request): string {
  const id = parseUuid(String(req.params.delivery_id ?? ''));
  if (id === undefined) throw new RequestValidationError([{ loc: ['path', 'delivery_id'], msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
  return id;
}

export function deliveryRoutes(pool: Pool, view: RequestHandler[]): Handlers {
  const fetch: RequestHandler = async (req, res) => {
    const row = await readDelivery(pool, req.scope.projectId, deliveryIdOf(req));
    if (!row) throw notFound('webhook_delivery_not_found', 'Webhook delivery not found');
    res.status(200).json({ count: 1, delivery: deliveryView(row) });
  };

  const query: RequestHandler = async (req, res) => {
    const body = validate(deliveryQuery, req.body ?? {});
    const d = body.delivery;
    const w = body.windowing;
    const code = d?.status?.code;
    const filter: DeliveryFilter = {
      ...(code != null && { statusCode: String(code) }),
      ...(d?.subscription_id && { subscriptionId: d.subscription_id }),
      ...(d?.event_id && { eventId: d.event_id }),
      ...(w?.newest && { newest: w.newest }),
      ...(w?.oldest && { oldest: w.oldest }),
      ...(w?.next && { next: w.next }),
      ...(w?.limit != null && { limit: w.limit }),
      ...(w?.order && { order: w.order }),
    };
    const deliveries = (await queryDeliveries(pool, req.scope.projectId, filter)).map(deliveryView);
    res.status(200).json({ count: deliveries.length, deliveries });
  };

  return { 'webhooks.deliveries.fetch': [...view, fetch], 'webhooks.deliveries.query': [...view, query] };
}
