// POST /webhooks/deliveries (reference accounts §9.3): a client records a delivery's state. Upsert
// on (project, subscription, event): the first write of a pair takes the body's id (or the derived
// delivery id, as the dispatcher would), later writes keep the pair's id and overwrite status and
// data. A body id another delivery of the project has gives way to the derived id here; one used
// only in another project is not probed (that is not the client's to learn): the deliveries
// projector gives the pair the derived id then. Recorded like every delivery state — a record on webhooks.deliveries.v1 (attempts 0,
// final) — and answered once the deliveries projection holds it (read-your-writes).
import type { RequestHandler } from 'express';
import { readWebhook } from '@llm/account-model';
import { deliveryIdTaken, deliveryView, readDeliveryOf } from '@llm/accounts-read';
import { deliveryCreate, type DeliveryData } from '@llm/contracts';
import { notFound } from '@llm/errors';
import type { Topics } from '@llm/events';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Producer } from '@llm/kafka';
import type { Pool } from '@llm/postgres';
import { appendDeliveryRecord, awaitDeliveryRecord, deliveryIdOf, type DeliveryRecord } from '@llm/webhooks';

export interface DeliveryRouteDeps { pool: Pool; producer: Producer; topics: Topics }

const subscriptionNotFound = () => notFound('webhook_subscription_not_found', 'Webhook subscription not found');

/** Nulls omitted (the answer's convention), one level deep. */
function compact<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;
}

export function deliveryRoutes(deps: DeliveryRouteDeps, guards: Guards<'edit'>): Handlers {
  const { pool } = deps;

  const create: RequestHandler = async (req, res) => {
    const { delivery: d } = validate(deliveryCreate, req.body);
    const projectId = req.scope.projectId;
    if (!await readWebhook(pool, projectId, d.subscription_id)) throw subscriptionNotFound();
    const existing = await readDeliveryOf(pool, projectId, d.subscription_id, d.event_id);
    const id = existing?.id
      ?? (d.id && !await deliveryIdTaken(pool, projectId, d.id) ? d.id : deliveryIdOf(d.event_id, d.subscription_id));
    const status = { ...compact(d.status), timestamp: d.status.timestamp ?? new Date().toISOString() } as DeliveryRecord['status'];
    const data = d.data ? compact({ ...d.data, ...(d.data.response ? { response: compact(d.data.response) } : {}) }) as DeliveryData : undefined;
    const recordId = await appendDeliveryRecord(deps.producer, deps.topics, {
      deliveryId: id, projectId, subscriptionId: d.subscription_id, eventId: d.event_id, status, ...(data && { data }), attempts: 0, final: true,
    }, { requestId: req.id, actorId: req.scope.userId });
    await awaitDeliveryRecord(pool, recordId);
    // Not there: the subscription was deleted meanwhile (its deliveries went with it).
    const row = await readDeliveryOf(pool, projectId, d.subscription_id, d.event_id);
    if (!row) throw subscriptionNotFound();
    res.status(200).json({ count: 1, delivery: deliveryView(row) });
  };

  return { 'webhooks.deliveries.create': [...guards.edit, create] };
}
