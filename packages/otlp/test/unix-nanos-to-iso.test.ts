import { describe, expect, it } from 'vitest';
import { unixNanosToIso } from '../src/unix-nanos-to-iso.ts';

function iso(nanos: bigint): string | undefined {
  return unixNanosToIso(Number(nanos & 0xffffffffn), Number(nanos >> 32n));
}

describe('unixNanosToIso', () => {
  it.each([
    [1n, '1970-01-01T00:00:00.000000Z'],
    [1_000n, '1970-01-01T00:00:00.000001Z'],
    [1_714_557_600_123_456_789n, '2024-05-01T10:00:00.123456Z'],
    [1_714_557_600_999_999_999n, '2024-05-01T10:00:00.999999Z'],
    [1_714_557_601_000_000_000n, '2024-05-01T10:00:01.000000Z'],
    [4_294_967_295n, '1970-01-01T00:00:04.294967Z'],
    [4_294_967_296n, '1970-01-01T00:00:04.294967Z'],
    [18_446_744_073_709_551_615n, '2554-07-21T23:34:33.709551Z'],
  ])('when the time is %s ns, then it formats as %s', (nanos, expected) => {
    expect(iso(nanos)).toBe(expected);
  });

  it('when the time is 0, then it is treated as unset', () => {
    expect(iso(0n)).toBeUndefined();
  });

  it('when many nanosecond values are formatted, then each agrees with a BigInt computation', () => {
    let nanos = 1_700_000_000_000_000_000n;
    for (let i = 0; i < 2_000; i++) {
      nanos += 987_654_321_123n + BigInt(i) * 7_919n;
      const micros = nanos / 1_000n;
      const ms = Number(micros / 1_000n);
      const expected = `${new Date(ms).toISOString().slice(0, 19)}.${String(micros % 1_000_000n).padStart(6, '0')}Z`;
      expect(iso(nanos)).toBe(expected);
    }
  });
});
