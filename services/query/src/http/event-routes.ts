// POST /events/query (reference accounts §10): the project's events log, newest first by default.
// Filters are exact matches; `windowing` bounds the time (inclusive), orders by (timestamp, event_id)
// either way, and pages with `next` = the last event id seen: the answer holds the events strictly
// after it in that order (with or without `newest`/`oldest`). `limit` 0 or absent means "all", bounded
// by EVENTS_QUERY_MAX_LIMIT per answer; page on with `next` beyond it.
import type { RequestHandler } from 'express';
import { eventQuery, type PlatformEventView } from '@llm/contracts';
import { RequestValidationError, validate, type Handlers } from '@llm/http';
import type { EventReader, EventRow } from '../adapters/event-reader.ts';

/** The most events one answer holds (an "unlimited" query included). */
export const EVENTS_QUERY_MAX_LIMIT = 10_000;

const MIN_US = Date.UTC(1900, 0, 1) * 1000;
const MAX_US = Date.UTC(2299, 11, 31, 23, 59, 59) * 1000;

const badWindow = (field: string, msg: string) => new RequestValidationError([{ loc: ['body', 'windowing', field], msg, type: 'value_error' }]);

/** Unix microseconds of an ISO 8601 date-time (no offset = UTC), keeping sub-millisecond digits. */
export function isoToUs(s: string): number {
  const m = /^(.*T\d{2}:\d{2}:\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(s);
  const off = (m?.[3] ?? 'Z').replace(/^([+-]\d{2})(\d{2})$/, '$1:$2').replace(/^([+-]\d{2})$/, '$1:00');
  const ms = m ? Date.parse(`${m[1]}${off}`) : NaN;
  if (!m || Number.isNaN(ms)) return NaN;
  return ms * 1000 + Number((m[2] ?? '').slice(0, 6).padEnd(6, '0'));
}

/** Unix microseconds as ISO 8601 UTC with microseconds. */
export function usToIso(us: number): string {
  const frac = String(((us % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0');
  return `${new Date(Math.floor(us / 1_000_000) * 1000).toISOString().slice(0, 19)}.${frac}Z`;
}

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

export function eventRoutes(events: EventReader, view_: RequestHandler[]): Handlers {
  return {
    'events.query': [...view_, async (req, res) => {
      const q = validate(eventQuery, req.body);
      const w = q.windowing ?? {};
      const f = q.event ?? {};
      if (w.limit != null && w.limit < 0) throw badWindow('limit', 'limit must be 0 (no limit) or more');
      const time = (field: 'newest' | 'oldest'): number | undefined => {
        const v = w[field];
        if (v == null) return undefined;
        const us = isoToUs(v);
        if (!Number.isFinite(us)) throw badWindow(field, 'value is not a valid ISO 8601 date-time');
        return us;
      };
      // The table's DateTime64 holds 1900-01-01 … 2299-12-31: a bound beyond it bounds nothing, and
      // a window wholly outside it holds nothing (ClickHouse is never asked about such times).
      let newestUs = time('newest');
      let oldestUs = time('oldest');
      if ((newestUs !== undefined && newestUs < MIN_US) || (oldestUs !== undefined && oldestUs > MAX_US)) {
        res.json({ count: 0, events: [] });
        return;
      }
      if (newestUs !== undefined && newestUs > MAX_US) newestUs = undefined;
      if (oldestUs !== undefined && oldestUs < MIN_US) oldestUs = undefined;
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
        projectId, order, limit: w.limit ? Math.min(w.limit, EVENTS_QUERY_MAX_LIMIT) : EVENTS_QUERY_MAX_LIMIT,
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
