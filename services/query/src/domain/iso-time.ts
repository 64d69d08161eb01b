// Request date-times (windowing bounds) as unix microseconds, and back. zod's `z.iso.datetime`
// admits strings the stores refuse — year 0000, offsets up to ±23:59 (Postgres takes ±15:59), …
// — so a bound is parsed here once, into microseconds, and checked against the range the stores
// hold; only a normalized UTC value (a number, or `usToIso`'s output) ever reaches Postgres or
// ClickHouse. Used by the events log (ClickHouse) and the deliveries query (Postgres).
import { isoToUs, MAX_TIME_US, MIN_TIME_US } from '@llm/contracts';
import { RequestValidationError } from '@llm/http';

// The stores' range and the reader are @llm/contracts' (dates.ts), shared with the request schemas.
export { isoToUs, MAX_TIME_US, MIN_TIME_US };

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
