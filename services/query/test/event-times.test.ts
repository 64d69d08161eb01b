import { describe, expect, it } from 'vitest';
import { isoToUs, MAX_TIME_US, MIN_TIME_US, timeWindow, usToIso } from '../src/domain/iso-time.ts';

describe('request times (domain/iso-time.ts)', () => {
  it('when a date-time has microseconds, an offset or none, then it maps to the same unix microseconds', () => {
    const us = Date.UTC(2025, 0, 2, 3, 4, 5) * 1000 + 123_456;
    expect(isoToUs('2025-01-02T03:04:05.123456Z')).toBe(us);
    expect(isoToUs('2025-01-02T03:04:05.123456')).toBe(us);
    expect(isoToUs('2025-01-02T05:04:05.123456+02:00')).toBe(us);
    expect(isoToUs('2025-01-02T05:04:05.123456+0200')).toBe(us);
    expect(isoToUs('2025-01-02T03:04:05Z')).toBe(us - 123_456);
    expect(usToIso(us)).toBe('2025-01-02T03:04:05.123456Z');
    expect(isoToUs(usToIso(us))).toBe(us);
    expect(Number.isNaN(isoToUs('yesterday'))).toBe(true);
    expect(isoToUs('2025-01-02T03:04Z')).toBe(us - 5_123_456);
  });

  it('when a bound is one zod admits but the stores refuse, then it is read into their range, never passed on raw', () => {
    // Year 0000 (Postgres: 22008) bounds nothing as `oldest` and leaves nothing as `newest`.
    expect(timeWindow({ oldest: '0000-01-01T00:00:00Z' })).toEqual({ empty: false });
    expect(timeWindow({ newest: '0000-01-01T00:00:00Z' })).toEqual({ empty: true });
    // An offset of +23:59 (Postgres: 22009) is just arithmetic here.
    const w = timeWindow({ newest: '2024-01-01T00:00:00+23:59', oldest: '2024-01-01T00:00:00-23:59' });
    expect(w).toEqual({ empty: false, newestUs: Date.UTC(2023, 11, 31, 0, 1) * 1000, oldestUs: Date.UTC(2024, 0, 1, 23, 59) * 1000 });
    expect(usToIso((w as { newestUs: number }).newestUs)).toBe('2023-12-31T00:01:00.000000Z');
    expect(timeWindow({ newest: '9999-12-31T23:59:59.999999999Z', oldest: '1900-01-01T00:00:00Z' })).toEqual({ empty: false, oldestUs: MIN_TIME_US });
    expect(timeWindow({ oldest: '9999-12-31T23:59:59Z' })).toEqual({ empty: true });
    expect(usToIso(MAX_TIME_US)).toBe('2299-12-31T23:59:59.000000Z');
    expect(() => timeWindow({ newest: 'yesterday' })).toThrow();
  });
});
