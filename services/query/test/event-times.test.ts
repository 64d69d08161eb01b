import { describe, expect, it } from 'vitest';
import { isoToUs, usToIso } from '../src/http/event-routes.ts';

describe('event times', () => {
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
  });
});
