import { describe, expect, it } from 'vitest';
import { timeUs, timeUsParam } from '../src/trace-locator.ts';

describe('timeUsParam', () => {
  it('when a time is within 2^53 µs, then it is the same number timeUs gives', () => {
    expect(timeUsParam('2024-05-05 10:00:00.123456')).toBe(timeUs('2024-05-05 10:00:00.123456'));
    expect(timeUsParam('1714903200.000001')).toBe(1_714_903_200_000_001);
  });

  it('when a time is past 2^53 µs (after 2255), then it is the exact decimal string a double cannot hold', () => {
    const seconds = BigInt(Date.UTC(2262, 0, 1) / 1000);
    expect(timeUsParam('2262-01-01 00:00:00.000001')).toBe((seconds * 1_000_000n + 1n).toString());
    expect(timeUsParam('2262-01-01T00:00:00.999999')).toBe((seconds * 1_000_000n + 999_999n).toString());
    expect(timeUsParam(`${seconds}.000007`)).toBe((seconds * 1_000_000n + 7n).toString());
  });
});
