// POST /webhooks/deliveries (reference accounts §9.3). PLACEHOLDER: being implemented.
import type { RequestHandler } from 'express';
import type { Topics } from '@llm/events';
import type { Handlers } from '@llm/http';
import type { Producer } from '@llm/kafka';
import type { Pool } from '@llm/postgres';

export interface DeliveryRouteDeps { pool: Pool; producer: Producer; topics: Topics }

const todo: RequestHandler = (_req, res) => { res.status(501).json({ detail: 'not implemented yet' }); };

export function deliveryRoutes(_deps: DeliveryRouteDeps, edit: RequestHandler[]): Handlers {
  return { 'webhooks.deliveries.create': [...edit, todo] };
}
