// GET /webhooks/deliveries/{id}, POST /webhooks/deliveries/query (reference accounts §9.3). PLACEHOLDER: being implemented.
import type { RequestHandler } from 'express';
import type { Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';

const todo: RequestHandler = (_req, res) => { res.status(501).json({ detail: 'not implemented yet' }); };

export function deliveryRoutes(_pool: Pool, view: RequestHandler[]): Handlers {
  return { 'webhooks.deliveries.fetch': [...view, todo], 'webhooks.deliveries.query': [...view, todo] };
}
