import { err, ok, type Result } from './result.ts';

// Internally a time is a number of microseconds since the Unix epoch: exact for every µs until
// year 2255 (2^53 µs), cheap to compare and subtract, and the precision ClickHouse DateTime64(6) keeps.

const NUMERIC = /^\d+(?:\.\d+)?$/;
// Date, optional time (seconds and fraction optional), optional `Z` or ±hh[:mm] offset.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;
const US_PER_DAY = 86_400_000_000;

/**
 * A timestamp as the API accepts it (reference §0) → epoch microseconds.
 * - ISO-8601 with or without offset; without one it is UTC (naive and aware inputs mix freely).
 * - An integer, or an integer-looking string, by digit count: 10 s, 13 ms, 16 µs, 19 ns (truncated to µs).
 *   Any other count is "ambiguous". A fractional number with a 10/13/16-digit integer part (Python's
 *   `time.time()`, JS `performance.timeOrigin + performance.now()`) is read the same way, to the µs.
 */
export function parseTimestampMicros(input: unknown): Result<number> {
  if (typeof input === 'number') return fromNumber(input);
  if (typeof input !== 'string') return err('Timestamp must be an ISO-8601 string or an integer.');
  const s = input.trim();
  const canonical = fromCanonicalIso(s);
  if (canonical !== undefined) return ok(canonical);
  if (NUMERIC.test(s)) return fromDigits(s, input);
  return fromIso(s, input);
}

/** A timestamp as the API accepts it → ISO-8601 UTC with exactly 6 fractional digits. */
export function parseTimestamp(input: unknown): Result<string> {
  const r = parseTimestampMicros(input);
  return r.ok ? ok(formatTimestamp(r.value)) : r;
}

// The calendar part of the last second formatted: the spans of one request mostly share their
// seconds, and Date#toISOString was a tenth of the ingest path's CPU.
let lastSecond = Number.NaN;
let lastSecondIso = '';

/** Epoch microseconds → `2024-01-01T00:00:00.000000Z`. */
export function formatTimestamp(micros: number): string {
  if (!Number.isSafeInteger(micros)) {
    const ms = Math.floor(micros / 1000);
    const us = micros - ms * 1000;
    // toISOString gives `…ss.mmmZ`; append the three µs digits before the Z.
    const iso = new Date(ms).toISOString();
    return `${iso.slice(0, -1)}${us < 10 ? '00' : us < 100 ? '0' : ''}${us}Z`;
  }
  const second = Math.floor(micros / 1_000_000);
  if (second !== lastSecond) {
    // `…ss.mmmZ` → `…ss` (also for the six-digit years toISOString writes with a sign).
    lastSecondIso = new Date(second * 1000).toISOString().slice(0, -5);
    lastSecond = second;
  }
  return `${lastSecondIso}.${String(micros - second * 1_000_000).padStart(6, '0')}Z`;
}

const digit = (s: string, i: number): number => {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : Number.NaN;
};

/**
 * `YYYY-MM-DDThh:mm:ss[.f…]Z` with 0–9 fraction digits — what OTLP decoding and normalisation write,
 * so nearly every ingest timestamp — read without the general pattern. Anything else, and any
 * out-of-range field, is left to the general path (undefined), which also words the errors.
 */
function fromCanonicalIso(s: string): number | undefined {
  const n = s.length;
  if (n < 20 || n === 21 || n > 30 || s.charCodeAt(n - 1) !== 90 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 || (n > 20 && s.charCodeAt(19) !== 46)) return undefined;
  const year = digit(s, 0) * 1000 + digit(s, 1) * 100 + digit(s, 2) * 10 + digit(s, 3);
  const month = digit(s, 5) * 10 + digit(s, 6);
  const day = digit(s, 8) * 10 + digit(s, 9);
  const hour = digit(s, 11) * 10 + digit(s, 12);
  const minute = digit(s, 14) * 10 + digit(s, 15);
  const second = digit(s, 17) * 10 + digit(s, 18);
  let micros = 0;
  // Digits beyond µs are truncated, as in the general path; missing ones are zeros.
  for (let i = 20, scale = 100_000; i < n - 1; i++, scale /= 10) {
    const d = digit(s, i);
    if (Number.isNaN(d)) return undefined;
    if (scale >= 1) micros += d * scale;
  }
  const monthDays = DAYS_IN_MONTH[month - 1];
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  // NaN fails every comparison below, so a non-digit anywhere falls through to the general path.
  if (!(year >= 1 && monthDays !== undefined && day >= 1 && day <= monthDays + (leap ? 1 : 0) && hour <= 23 && minute <= 59 && second <= 59)) return undefined;
  return daysFromCivil(year, month, day) * US_PER_DAY + (hour * 3600 + minute * 60 + second) * 1_000_000 + micros;
}

/** Epoch microseconds of any accepted timestamp (normally an already-normalised ISO string); undefined if invalid. */
export function epochMicros(input: string | number): number | undefined {
  const r = parseTimestampMicros(input);
  return r.ok ? r.value : undefined;
}

function ambiguous(original: unknown): Result<number> {
  return err(`Timestamp ${String(original)} is ambiguous.`);
}

function fromNumber(n: number): Result<number> {
  if (!Number.isFinite(n) || n < 0) return ambiguous(n);
  const whole = Math.trunc(n);
  // String() prints integers below 1e21 without an exponent, so length is the digit count.
  const digits = String(whole).length;
  if (whole === n) {
    switch (digits) {
      case 10: return ok(n * 1_000_000);
      case 13: return ok(n * 1000);
      case 16: return ok(n);
      // Above 2^53 a number has already lost ns precision; µs truncation is the best we can do.
      case 19: return ok(Math.trunc(n / 1000));
      default: return ambiguous(n);
    }
  }
  switch (digits) {
    case 10: return ok(Math.round(n * 1_000_000));
    case 13: return ok(Math.round(n * 1000));
    case 16: return ok(Math.round(n));
    default: return ambiguous(n);
  }
}

function fromDigits(s: string, original: unknown): Result<number> {
  const dot = s.indexOf('.');
  if (dot === -1) {
    switch (s.length) {
      case 10: return ok(Number(s) * 1_000_000);
      case 13: return ok(Number(s) * 1000);
      case 16: return ok(Number(s));
      // Cut the string, not the number: 19-digit ns do not fit a double exactly.
      case 19: return ok(Number(s.slice(0, 16)));
      default: return ambiguous(original);
    }
  }
  if (dot !== 10 && dot !== 13 && dot !== 16) return ambiguous(original);
  return fromNumber(Number(s));
}

function fromIso(s: string, original: string): Result<number> {
  const m = ISO.exec(s);
  if (m === null) return err(`Invalid timestamp '${original.length > 80 ? `${original.slice(0, 77)}...` : original}'.`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const fraction = m[7];
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = DAYS_IN_MONTH[month - 1];
  if (
    year < 1 || monthDays === undefined || day < 1 || day > monthDays + (leap ? 1 : 0) ||
    hour > 23 || minute > 59 || second > 59
  ) {
    return err(`Invalid timestamp '${original}': out of range.`);
  }
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = m[11] === undefined ? 0 : Number(m[11]);
    if (oh > 23 || om > 59) return err(`Invalid timestamp '${original}': offset out of range.`);
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  let micros = 0;
  if (fraction !== undefined) {
    // Digits beyond µs are truncated, as Python's datetime does.
    micros = Number(fraction.length >= 6 ? fraction.slice(0, 6) : fraction.padEnd(6, '0'));
  }
  const seconds = hour * 3600 + minute * 60 + second - offsetMinutes * 60;
  return ok(daysFromCivil(year, month, day) * US_PER_DAY + seconds * 1_000_000 + micros);
}

// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm); Date.UTC
// would map years 0–99 to 1900–1999.
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}
