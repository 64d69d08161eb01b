// Date-times as both stores hold them, checked once at the request boundary. Postgres `timestamptz`
// and ClickHouse `DateTime64(6)` overlap in 1900-01-01 .. 2299-12-31; JavaScript reads years up to
// 275760 (and `toISOString` then writes `+099999-…`, which Postgres refuses), zod's ISO grammar
// admits year 0000 and offsets Postgres refuses. So a date-time is read here into microseconds,
// range-checked, and handed on only as a normalised UTC string.
import { z } from 'zod';
import { TEXT_LIMITS, textProblem } from './text.ts';

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

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const RANGE = 'an ISO 8601 date-time between 1900-01-01 and 2299-12-31';

/**
 * An ISO 8601 date-time (or a bare date, read as midnight UTC) inside the stores' range, answered
 * as UTC with milliseconds (`2025-01-01T00:00:00.000Z`).
 */
export const storedDateTime = z.string({ error: `must be ${RANGE}` })
  .max(TEXT_LIMITS.shortText, { error: `must be at most ${TEXT_LIMITS.shortText} characters` })
  .transform((s, ctx) => {
    const problem = textProblem(s);
    const us = problem === undefined ? isoToUs(DATE_ONLY.test(s) ? `${s}T00:00:00Z` : s) : NaN;
    if (!Number.isFinite(us) || us < MIN_TIME_US || us > MAX_TIME_US) {
      ctx.addIssue({ code: 'custom', message: problem ?? `value is not ${RANGE}`, input: s });
      return z.NEVER;
    }
    return new Date(Math.floor(us / 1000)).toISOString();
  });
