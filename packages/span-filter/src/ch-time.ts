// Timestamps as ClickHouse DateTime64(6,'UTC') parameters.
import { formatTimestamp, parseTimestampMicros, type Result } from '@llm/span-model';

export const DATETIME64 = "DateTime64(6,'UTC')";

// The range of DateTime64: outside it ClickHouse clamps silently, which would turn a typo into a
// wrong answer instead of an error.
const MIN_US = Date.UTC(1900, 0, 1) * 1000;
const MAX_US = Date.UTC(2300, 0, 1) * 1000 - 1;

/** Epoch µs → `2024-01-01 00:00:00.000000`, the text form a DateTime64(6) parameter parses. */
export function toDateTime64Text(us: number): string {
  return formatTimestamp(us).replace('T', ' ').slice(0, -1);
}

/** A timestamp as the API accepts it (ISO-8601, or 10/13/16/19-digit integers) → epoch µs. */
export function parseTimeValue(input: unknown): Result<number> {
  if (typeof input !== 'string' && typeof input !== 'number') {
    return { ok: false, error: 'a timestamp must be an ISO-8601 string or an integer' };
  }
  const r = parseTimestampMicros(input);
  if (!r.ok) return r;
  if (r.value < MIN_US || r.value > MAX_US) return { ok: false, error: `timestamp ${String(input)} is outside 1900-2299` };
  return r;
}
