// Request date-times (windowing bounds) as unix microseconds, and back. zod's `z.iso.datetime`
// admits strings the stores refuse — year 0000, offsets up to ±23:59 (Postgres takes ±15:59), …
// — so a bound is parsed here once, into microseconds, and checked against the range the stores
// hold; only a normalized UTC value (a number, or `usToIso`'s output) ever reaches Postgres or
// ClickHouse. Used by the events log (ClickHouse) and the deliveries query (Postgres).
import { RequestValidationError } from '@llm/http';

/** 1900-01-01T00:00:00Z: the first time both stores hold (ClickHouse DateTime64's lower end). */
export const MIN_TIME_US = Date.UTC(1900, 0, 1) * 1000;
/** 2299-12-31T23:59:59Z: the last whole second both stores hold (ClickHouse DateTime64's upper end).
 * Microseconds past 2^53 (about year 2255) are even numbers only: a bound there may move by 1 µs. */
export const MAX_TIME_US = Date.UTC(2299, 11, 31, 23, 59, 59) * 1000;

/** Unix microseconds of an ISO 8601 date-time (no offset = UTC), keeping sub-millisecond digits; NaN when unreadable. */
export function isoToUs(s: string): number {
  const m = /^(.*T\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(s);
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

/** A window's inclusive time bounds, unix microseconds; `empty`: no stored time can be inside. */
export type TimeWindow = { empty: true } | { empty: false; newestUs?: number; oldestUs?: number };

/**
 * The `newest` / `oldest` bounds of a request's windowing, read into the stores' range: an
 * unreadable one is a 422 at `body.windowing.<field>`; a bound beyond the range bounds nothing; a
 * window wholly outside it holds nothing (the stores are never asked about such times).
 */
export function timeWindow(w: { newest?: string | null; oldest?: string | null } | null | undefined): TimeWindow {
  const read = (field: 'newest' | 'oldest'): number | undefined => {
    const v = w?.[field];
    if (v == null) return undefined;
    const us = isoToUs(v);
    if (!Number.isFinite(us)) {
      throw new RequestValidationError([{ loc: ['body', 'windowing', field], msg: 'value is not a valid ISO 8601 date-time', type: 'value_error' }]);
    }
    return us;
  };
  let newestUs = read('newest');
  let oldestUs = read('oldest');
  if ((newestUs !== undefined && newestUs < MIN_TIME_US) || (oldestUs !== undefined && oldestUs > MAX_TIME_US)) return { empty: true };
  if (newestUs !== undefined && newestUs > MAX_TIME_US) newestUs = undefined;
  if (oldestUs !== undefined && oldestUs < MIN_TIME_US) oldestUs = undefined;
  return { empty: false, ...(newestUs !== undefined ? { newestUs } : {}), ...(oldestUs !== undefined ? { oldestUs } : {}) };
}
