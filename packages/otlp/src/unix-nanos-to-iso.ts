// OTLP times are fixed64 nanoseconds, beyond 2^53, so they arrive as two uint32 halves. The split
// below keeps every intermediate under 2^53, so the result is exact without BigInt.

const NANOS_PER_MS = 1_000_000;
// 2^32 = 4294 * 10^6 + 967296: the high half contributes hi * 4294 whole milliseconds plus a
// remainder small enough (hi * 967296 < 2^52) to add to the low half exactly.
const HI_WHOLE_MS = 4294;
const HI_REMAINDER_NS = 967_296;

// Spans of one request share their second almost always; formatting the date part once per
// distinct second keeps Date/toISOString off the per-span path.
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * Nanoseconds since the epoch, as ISO-8601 UTC with exactly 6 fractional digits (µs, nanoseconds
 * truncated), e.g. `2024-05-01T10:00:00.123456Z`. Returns undefined for 0, which OTLP uses for
 * "not set".
 */
export function unixNanosToIso(lo: number, hi: number): string | undefined {
  if (lo === 0 && hi === 0) return undefined;
  const rest = hi * HI_REMAINDER_NS + lo;
  const restMs = Math.floor(rest / NANOS_PER_MS);
  const ms = hi * HI_WHOLE_MS + restMs;
  const microsInMs = Math.floor((rest - restMs * NANOS_PER_MS) / 1000);
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    // 'YYYY-MM-DDTHH:MM:SS'; fixed64 tops out in year 2554, so the year has 4 digits.
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 19);
    cachedSecond = second;
  }
  const micros = (ms - second * 1000) * 1000 + microsInMs;
  return `${cachedPrefix}.${String(micros).padStart(6, '0')}Z`;
}
