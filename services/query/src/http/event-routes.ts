// POST /events/query (reference accounts §10). PLACEHOLDER: being implemented.
import type { RequestHandler } from 'express';
import type { Handlers } from '@llm/http';

const todo: RequestHandler = (_req, res) => { res.status(501).json({ detail: 'not implemented yet' }); };

export function eventRoutes(view: RequestHandler[]): Handlers {
  return { 'events.query': [...view, todo] };
}
