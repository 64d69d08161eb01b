import { describe, expect, it } from 'vitest';

import { epochMicros, formatTimestamp, parseTimestamp, parseTimestampMicros } from '../src/timestamps.ts';

describe('parseTimestamp', () => {
  it.each([
    ['10-digit seconds', 1_700_000_000, '2023-11-14T22:13:20.000000Z'],
    ['13-digit milliseconds', 1_700_000_000_123, '2023-11-14T22:13:20.123000Z'],
    ['16-digit microseconds', 1_700_000_000_123_456, '2023-11-14T22:13:20.123456Z'],
    ['10-digit seconds as a string', '1700000000', '2023-11-14T22:13:20.000000Z'],
    ['13-digit milliseconds as a string', '1700000000123', '2023-11-14T22:13:20.123000Z'],
    ['16-digit microseconds as a string', '1700000000123456', '2023-11-14T22:13:20.123456Z'],
    ['19-digit nanoseconds as a string (truncated)', '1700000000123456789', '2023-11-14T22:13:20.123456Z'],
    ['fractional seconds (time.time())', 1_700_000_000.25, '2023-11-14T22:13:20.250000Z'],
    ['fractional milliseconds', 1_700_000_000_123.5, '2023-11-14T22:13:20.123500Z'],
  ])('when given %s, then reads it by digit count', (_, input, expected) => {
    expect(parseTimestamp(input)).toEqual({ ok: true, value: expected });
  });

  it('when given 19-digit nanoseconds as a number, then it is read to the microsecond', () => {
    const r = parseTimestampMicros(1_700_000_000_123_456_000);
    expect(r.ok && Math.abs(r.value - 1_700_000_000_123_456) <= 1).toBe(true);
  });

  it.each([
    [170_000_000, 'Timestamp 170000000 is ambiguous.'],
    ['17000000001', 'Timestamp 17000000001 is ambiguous.'],
    [17_000_000_001_234, 'Timestamp 17000000001234 is ambiguous.'],
    [-1_700_000_000, 'Timestamp -1700000000 is ambiguous.'],
  ])('when the digit count is not 10/13/16/19 (%s), then it is ambiguous', (input, message) => {
    expect(parseTimestamp(input)).toEqual({ ok: false, error: message });
  });

  it.each([
    ['naive ISO (read as UTC)', '2024-01-01T00:00:00', '2024-01-01T00:00:00.000000Z'],
    ['ISO with Z', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000000Z'],
    ['ISO with a positive offset', '2024-01-01T02:00:00+02:00', '2024-01-01T00:00:00.000000Z'],
    ['ISO with a negative compact offset', '2023-12-31T19:30:00-0430', '2024-01-01T00:00:00.000000Z'],
    ['ISO with an hour-only offset', '2024-01-01T01:00:00+01', '2024-01-01T00:00:00.000000Z'],
    ['a space separator and microseconds', '2024-01-01 00:00:00.123456', '2024-01-01T00:00:00.123456Z'],
    ['nanoseconds (truncated)', '2024-01-01T00:00:00.123456789Z', '2024-01-01T00:00:00.123456Z'],
    ['milliseconds', '2024-01-01T00:00:00.5Z', '2024-01-01T00:00:00.500000Z'],
    ['no seconds', '2024-01-01T10:20', '2024-01-01T10:20:00.000000Z'],
    ['a date only', '2024-02-29', '2024-02-29T00:00:00.000000Z'],
    ['an offset crossing the day', '2024-03-01T00:30:00+01:00', '2024-02-29T23:30:00.000000Z'],
    ['a year before 100', '0050-06-15T12:00:00Z', '0050-06-15T12:00:00.000000Z'],
  ])('when given %s, then returns it in UTC with 6 fractional digits', (_, input, expected) => {
    expect(parseTimestamp(input)).toEqual({ ok: true, value: expected });
  });

  it.each(['yesterday', '2023-02-29T00:00:00Z', '2024-13-01T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:00:00+25:00', ''])(
    'when given an invalid string %j, then returns an error',
    (input) => {
      expect(parseTimestamp(input).ok).toBe(false);
    },
  );

  it('when naive and aware inputs describe the same instant, then they are equal', () => {
    expect(parseTimestamp('2024-05-05T10:00:00')).toEqual(parseTimestamp('2024-05-05T12:00:00+02:00'));
    expect(parseTimestamp('2024-05-05T10:00:00')).toEqual(parseTimestamp(1_714_903_200));
  });
});

describe('formatTimestamp and epochMicros', () => {
  it('when formatting epoch microseconds, then the output parses back to the same value', () => {
    for (const us of [0, 1, 999, 1_700_000_000_123_456, -1_000_001]) {
      expect(epochMicros(formatTimestamp(us))).toBe(us);
    }
  });

  it('when given an invalid timestamp, then epochMicros returns undefined', () => {
    expect(epochMicros('nope')).toBeUndefined();
  });
});

describe('the canonical ISO fast path', () => {
  // The fast path reads `YYYY-MM-DDThh:mm:ss[.f…]Z`; the same instant written with `+00:00` goes
  // through the general pattern. Both must agree, and what the fast path does not accept must be
  // decided (and worded) by the general path.
  it.each([
    '2024-02-29T23:59:59.999999Z', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.5Z', '2024-01-01T00:00:00.123456789Z',
    '1970-01-01T00:00:00.000001Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999Z', '1969-12-31T23:59:59.999999Z',
  ])('when %s is read, then it equals the same instant with an explicit offset', (iso) => {
    const fast = parseTimestampMicros(iso);
    expect(fast.ok).toBe(true);
    expect(fast).toEqual(parseTimestampMicros(`${iso.slice(0, -1)}+00:00`));
  });

  it.each(['2023-02-29T00:00:00Z', '2024-13-01T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:60:00Z', '2024-01-01T00:00:60Z', '2024-01-01T00:00:00.Z', '2024-01-01T00:00:0xZ', '2024-01-01T00:00:00.12a4Z'])(
    'when %s is read, then it is refused as by the general pattern', (iso) => {
      expect(parseTimestampMicros(iso).ok).toBe(false);
    });

  it('when a fraction has more than nine digits, then the general path reads it the same way (truncated to µs)', () => {
    expect(parseTimestampMicros('2024-01-01T00:00:00.1234567891Z')).toEqual(parseTimestampMicros('2024-01-01T00:00:00.123456Z'));
  });

  it('when many times of one second are formatted in turn with others between, then each is exact', () => {
    const base = 1_700_000_000_000_000;
    for (const us of [base, base + 999_999, base + 1_000_000, base + 1, base - 1, 253_402_300_799_999_999, base]) {
      expect(formatTimestamp(us)).toBe(`${new Date(Math.floor(us / 1000)).toISOString().slice(0, -1)}${String(us % 1000).padStart(3, '0')}Z`);
    }
  });
});
