// GCRA bucket math with an explicit clock: burst from idle, steady rate, retry-after values, and no
// drift when the emission interval is not a whole number of milliseconds.
import { describe, expect, it } from 'vitest';
import { gcra, gcraParams, recoveredAt, type GcraState } from '../src/index.ts';

const T0 = 1_767_225_600_000; // an epoch-sized clock, as Date.now gives

/** Sends `n` requests at `now`, committing admitted ones; returns how many passed and the last decision. */
function burst(state: GcraState | undefined, now: number, n: number, capacity: number, rate: number) {
  const p = gcraParams(capacity, rate);
  let s = state;
  let passed = 0;
  let last = gcra(s, now, p);
  for (let i = 0; i < n; i++) {
    last = gcra(s, now, p);
    if (last.allowed) { passed++; s = last.state; }
  }
  return { passed, last, state: s };
}

describe('gcra', () => {
  it('given an idle bucket of 480 per minute, when 481 requests arrive at once, then 480 pass and the 481st must wait one interval (125 ms)', () => {
    const r = burst(undefined, T0, 481, 480, 480);
    expect(r.passed).toBe(480);
    expect(r.last.allowed).toBe(false);
    expect(r.last.remaining).toBe(0);
    expect(r.last.retryAfterMs).toBeCloseTo(125, 6);
  });

  it('given an idle bucket, when requests arrive one by one, then remaining counts down from capacity - 1 to 0', () => {
    const p = gcraParams(5, 60);
    let s: GcraState | undefined;
    const remaining: number[] = [];
    for (let i = 0; i < 6; i++) {
      const d = gcra(s, T0, p);
      remaining.push(d.remaining);
      if (d.allowed) s = d.state;
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0, 0]);
  });

  it('given an exhausted bucket, when time passes, then exactly one request per emission interval passes', () => {
    const r = burst(undefined, T0, 480, 480, 480);
    const p = gcraParams(480, 480);
    let s = r.state;
    for (let k = 1; k <= 100; k++) {
      const now = T0 + k * 125;
      const first = gcra(s, now, p);
      expect(first.allowed).toBe(true);
      expect(first.remaining).toBe(0);
      s = first.state;
      const second = gcra(s, now, p);
      expect(second.allowed).toBe(false);
      expect(second.retryAfterMs).toBeCloseTo(125, 6);
    }
    // Just before the next interval: still denied, with the short wait left.
    expect(gcra(s, T0 + 100 * 125 + 124, p).retryAfterMs).toBeCloseTo(1, 6);
  });

  it('given a client sending at exactly the sustained rate, then it is never denied and keeps capacity - 1 remaining', () => {
    const p = gcraParams(10, 30); // T = 2 s
    let s: GcraState | undefined;
    for (let k = 0; k < 50; k++) {
      const d = gcra(s, T0 + k * 2000, p);
      expect(d.allowed).toBe(true);
      expect(d.remaining).toBe(9);
      s = d.state;
    }
  });

  it('given a slow bucket (120 per burst, 1 per minute), when the 121st request arrives, then it must wait 60 s; a second later 59 s', () => {
    const r = burst(undefined, T0, 121, 120, 1);
    expect(r.passed).toBe(120);
    expect(r.last.retryAfterMs).toBeCloseTo(60_000, 6);
    expect(gcra(r.state, T0 + 1_000, gcraParams(120, 1)).retryAfterMs).toBeCloseTo(59_000, 6);
    expect(gcra(r.state, T0 + 60_000, gcraParams(120, 1)).allowed).toBe(true);
  });

  it('given intervals that are not whole milliseconds (1440/min, 36000/min), when the burst is spent at once, then exactly capacity pass', () => {
    expect(burst(undefined, T0, 1441, 1440, 1440).passed).toBe(1440);
    const big = burst(undefined, T0, 36_001, 36_000, 36_000);
    expect(big.passed).toBe(36_000);
    expect(big.last.retryAfterMs).toBeCloseTo(60_000 / 36_000, 6);
    // And the bucket refills fully after capacity × T.
    const after = burst(big.state, T0 + 60_000, 36_001, 36_000, 36_000);
    expect(after.passed).toBe(36_000);
  });

  it('given a partly used bucket, when half the backlog has drained, then half the used tokens are back', () => {
    const p = gcraParams(10, 60); // T = 1 s, tolerance 10 s
    const r = burst(undefined, T0, 10, 10, 60);
    expect(gcra(r.state, T0 + 5_000, p).remaining).toBe(4); // 5 back, 1 taken by this request
    expect(recoveredAt(r.state!)).toBe(T0 + 10_000);
  });

  it('given a denied request, then the state it returns is the state it was given (nothing to store)', () => {
    const r = burst(undefined, T0, 2, 2, 60);
    const d = gcra(r.state, T0, gcraParams(2, 60));
    expect(d.allowed).toBe(false);
    expect(d.state).toBe(r.state);
  });

  it('given a clock that steps back, then the bucket does not refill', () => {
    const p = gcraParams(2, 60);
    const r = burst(undefined, T0, 2, 2, 60);
    expect(gcra(r.state, T0 - 10_000, p).allowed).toBe(false);
  });
});
