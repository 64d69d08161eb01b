// GET /webhooks/deliveries/{id}, POST /webhooks/deliveries/query (reference accounts §9.3, §9.4):
// the caller's project's deliveries from webhook_deliveries (the projection of
// webhooks.deliveries.v1). Query filters: status (its code, as text), subscription_id, event_id;
// windowing: created_at descending (then id) — ascending on request —, `newest`/`oldest` bounds
// (read by domain/iso-time.ts: Postgres only ever sees a normalized UTC time inside 1900–2299; a
// bound beyond that range bounds nothing or leaves nothing), `next` = the id of the last delivery
// seen, `limit` (< 1 → 1).
// No windowing means every delivery (the reference), bounded per answer: at most
// DELIVERIES_QUERY_MAX_LIMIT = 10,000 deliveries and QUERY_MAX_RESULT_BYTES (default 64 MiB) of
// answered JSON — the page ends before the delivery that would cross it, one delivery at least.
// The client pages on with `next` = the last id of the answer; only an empty answer is the end.
// Rows are read in chunks sized by the largest delivery seen so far (the first one: 16 rows; a
// delivery's recorded data stays within 256 KiB), so the memory one answer takes stays near the
// byte budget plus one chunk.
import type { Request, RequestHandler } from 'express';
import { parseUuid } from '@llm/account-model';
import { deliveryView, queryDeliveries, readDelivery, type DeliveryFilter } from '@llm/accounts-read';
import { deliveryQuery, type WebhookDeliveryView } from '@llm/contracts';
import { notFound } from '@llm/errors';
import { RequestValidationError, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { DEFAULT_MAX_RESULT_BYTES } from '@llm/span-read';
import { timeWindow, usToIso } from '../domain/iso-time.ts';

/** The most deliveries one answer holds (a query without `limit` included). */
export const DELIVERIES_QUERY_MAX_LIMIT = 10_000;
/** The first chunk read; later chunks are sized by the budget left and the largest delivery seen. */
const FIRST_CHUNK = 16;
const MAX_CHUNK = 1_000;

function deliveryIdOf(req: Request): string {
  const id = parseUuid(String(req.params.delivery_id ?? ''));
  if (id === undefined) throw new RequestValidationError([{ loc: ['path', 'delivery_id'], msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
  return id;
}

/** The project's oldest readable delivery time (issue 30); null = nothing expires. */
export type DeliveriesRetainedFrom = (projectId: string) => Promise<Date | null>;

export function deliveryRoutes(deps: { pool: Pool; maxResultBytes?: number | undefined; retainedFrom?: DeliveriesRetainedFrom }, guards: Guards<'view'>): Handlers {
  const { pool } = deps;
  const maxResultBytes = deps.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const retainedFrom: DeliveriesRetainedFrom = deps.retainedFrom ?? (async () => null);
  const fetch: RequestHandler = async (req, res) => {
    const row = await readDelivery(pool, req.scope.projectId, deliveryIdOf(req), await retainedFrom(req.scope.projectId));
    if (!row) throw notFound('webhook_delivery_not_found', 'Webhook delivery not found');
    res.status(200).json({ count: 1, delivery: deliveryView(row) });
  };

  const query: RequestHandler = async (req, res) => {
    const body = validate(deliveryQuery, req.body ?? {});
    const d = body.delivery;
    const w = body.windowing;
    const window = timeWindow(w);
    if (window.empty) {
      res.status(200).json({ count: 0, deliveries: [] });
      return;
    }
    const code = d?.status?.code;
    const filter: DeliveryFilter = {
      ...(code != null && { statusCode: String(code) }),
      ...(d?.subscription_id && { subscriptionId: d.subscription_id }),
      ...(d?.event_id && { eventId: d.event_id }),
      ...(window.newestUs !== undefined && { newest: usToIso(window.newestUs) }),
      ...(window.oldestUs !== undefined && { oldest: usToIso(window.oldestUs) }),
      ...(w?.order && { order: w.order }),
    };
    const want = w?.limit != null ? Math.min(Math.max(1, Math.floor(w.limit)), DELIVERIES_QUERY_MAX_LIMIT) : DELIVERIES_QUERY_MAX_LIMIT;
    const deliveries: WebhookDeliveryView[] = [];
    let bytes = 0;
    let largest = 0;
    let next = w?.next ?? undefined;
    const from = await retainedFrom(req.scope.projectId);
    for (let chunk = Math.min(FIRST_CHUNK, want); ;) {
      const rows = await queryDeliveries(pool, req.scope.projectId, from, { ...filter, ...(next !== undefined && { next }), limit: chunk });
      let full = false;
      for (const row of rows) {
        const v = deliveryView(row);
        const size = JSON.stringify(v).length;
        if (deliveries.length > 0 && bytes + size > maxResultBytes) { full = true; break; }
        deliveries.push(v);
        bytes += size;
        largest = Math.max(largest, size);
      }
      if (full || rows.length < chunk || deliveries.length >= want) break;
      next = deliveries[deliveries.length - 1]!.id;
      chunk = Math.max(1, Math.min(MAX_CHUNK, want - deliveries.length, Math.floor((maxResultBytes - bytes) / Math.max(1, largest))));
    }
    res.status(200).json({ count: deliveries.length, deliveries });
  };

  return { 'webhooks.deliveries.fetch': [...guards.view, fetch], 'webhooks.deliveries.query': [...guards.view, query] };
}
