// POST /events/query (reference accounts §10): the project's events log, newest first by default.
// Filters are exact matches; `windowing` bounds the time (inclusive), orders by (timestamp, event_id)
// either way, and pages with `next` = the last event id seen: the answer holds the events strictly
// after it in that order (with or without `newest`/`oldest`). Time bounds are read by
// domain/iso-time.ts (a bound outside 1900–2299 bounds nothing or leaves nothing).
// Size of one answer: `limit` 0 or absent means "all" (the reference), bounded here by
// EVENTS_QUERY_MAX_LIMIT = 1,000 events and by QUERY_MAX_RESULT_BYTES (default 64 MiB) of estimated
// event bytes — the page ends before the event that would cross it, one event at least — so an
// answer stays near 1,000 × the largest attributes (tens of KB: ~40 MB) at most. The client pages on
// with `next` = the last event id of the answer; fewer events than asked for is not the end, an
// empty answer is.
import { eventQuery, type PlatformEventView } from '@llm/contracts';
import { RequestValidationError, validate, type Handlers, type Guards } from '@llm/http';
import type { EventReader, EventRow } from '../adapters/event-reader.ts';
import { DEFAULT_MAX_RESULT_BYTES } from '@llm/span-read';
import { timeWindow, usToIso } from '../domain/iso-time.ts';

/** The most events one answer holds (an "unlimited" query included). */
export const EVENTS_QUERY_MAX_LIMIT = 1_000;

const badWindow = (field: string, msg: string) => new RequestValidationError([{ loc: ['body', 'windowing', field], msg, type: 'value_error' }]);

function view(r: EventRow): PlatformEventView {
  let attributes: Record<string, unknown> | undefined;
  try { attributes = JSON.parse(r.attributes) as Record<string, unknown>; } catch { attributes = undefined; }
  return {
    request_id: r.request_id, event_id: r.event_id, request_type: r.request_type, event_type: r.event_type, timestamp: usToIso(r.time_us),
    ...(r.status_code ? { status_code: r.status_code } : {}),
    ...(r.status_message ? { status_message: r.status_message } : {}),
    ...(attributes ? { attributes } : {}),
    created_at: usToIso(r.created_us),
  };
}

export function eventRoutes(deps: { events: EventReader; maxResultBytes?: number | undefined }, guards: Guards<'view'>): Handlers {
  const { events } = deps;
  const maxResultBytes = deps.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  return {
    'events.query': [...guards.view, async (req, res) => {
      const q = validate(eventQuery, req.body);
      const w = q.windowing ?? {};
      const f = q.event ?? {};
      if (w.limit != null && w.limit < 0) throw badWindow('limit', 'limit must be 0 (no limit) or more');
      const window = timeWindow(w);
      if (window.empty) {
        res.json({ count: 0, events: [] });
        return;
      }
      const { newestUs, oldestUs } = window;
      const order = w.order === 'ascending' ? 'asc' : 'desc';
      const projectId = req.scope.projectId;
      let after: { timeUs: number; eventId: string } | undefined;
      if (w.next) {
        // The cursor's place is its event's; an event no longer held is placed at the bound the
        // reference pairs with it (newest descending, oldest ascending).
        const bound = order === 'desc' ? newestUs : oldestUs;
        const at = (await events.timeOf(projectId, w.next)) ?? bound;
        if (at === undefined) throw badWindow('next', `no event ${w.next} in this project; give ${order === 'desc' ? 'newest' : 'oldest'} with it`);
        after = { timeUs: at, eventId: w.next };
      }
      const rows = await events.query({
        projectId, order, limit: w.limit ? Math.min(w.limit, EVENTS_QUERY_MAX_LIMIT) : EVENTS_QUERY_MAX_LIMIT, maxBytes: maxResultBytes,
        ...(f.request_type ? { requestType: f.request_type } : {}),
        ...(f.request_id ? { requestId: f.request_id } : {}),
        ...(f.event_type ? { eventType: f.event_type } : {}),
        ...(f.event_id ? { eventId: f.event_id } : {}),
        ...(newestUs !== undefined ? { newestUs } : {}),
        ...(oldestUs !== undefined ? { oldestUs } : {}),
        ...(after ? { after } : {}),
      });
      res.json({ count: rows.length, events: rows.map(view) });
    }],
  };
}
