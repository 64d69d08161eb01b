// The admission predicates (reference accounts §2.3), as the counter's SQL applies them too
// (admission-store.int.test.ts checks that they agree).
import { describe, expect, it } from 'vitest';
import { admits } from '../src/index.ts';

describe('admission predicates', () => {
  it('no limit admits everything', () => {
    expect(admits(undefined, 10 ** 9, 10 ** 9)).toBe(true);
    expect(admits({ limit: null, strict: true }, 10 ** 9, 1)).toBe(true);
  });
  it('strict: admitted while value + delta stays within the limit', () => {
    const q = { limit: 20, strict: true };
    expect(admits(q, 19, 1)).toBe(true);
    expect(admits(q, 19, 2)).toBe(false);
    expect(admits(q, 20, 1)).toBe(false);
    expect(admits(q, 0, 21)).toBe(false);
  });
  it('non-strict: one request may cross the line once; then everything is refused', () => {
    const q = { limit: 5000, strict: false };
    expect(admits(q, 4999, 5000)).toBe(true);
    expect(admits(q, 4999, 5001)).toBe(false);
    expect(admits(q, 5000, 1)).toBe(false);
    expect(admits(q, 9999, 1)).toBe(false);
  });
  it('a zero delta is never refused (nothing to meter)', () => {
    expect(admits({ limit: 0, strict: true }, 10, 0)).toBe(true);
  });
});
