// Ingest admission: the backlog bound refuses at once; above the hard lag everything is refused;
// around the setpoint a controller holds the admitted rate. The model at the end runs the
// controller against a simulated projector (batch cycles, commits, the broker's lag ladder) and
// checks that an overload keeps the capacity.
import { describe, expect, it } from 'vitest';
import type { LagSnapshot } from '@llm/kafka';
import { IngestPressure } from '../src/ingest/adapters/ingest-pressure.ts';
import { simulate } from './support/pipeline-model.ts';

const at = (ms: number, observedAt = 1000) => () => ({ records: 1, ms, observedAt });

describe('ingest pressure', () => {
  const base = { lagTargetMs: 2000, lagHardMs: 4000, staleMs: 5000, maxPendingBytes: 1000, now: () => 2000 };

  it('given bytes waiting up to the bound, when checked, then refused with Retry-After 1 until they are released', () => {
    const p = new IngestPressure(base);
    const release = p.hold(1000);
    expect(p.check()).toMatchObject({ reason: 'backlog', retryAfterSeconds: 1 });
    release(); release();
    expect(p.check()).toBeUndefined();
  });

  it('given a lag under the setpoint, then admitted and no rate is held; above the hard lag, refused with its seconds', () => {
    const p = new IngestPressure({ ...base, lag: at(1500) });
    expect(p.check(10_000)).toBeUndefined();
    expect(p.rateLimit()).toBeUndefined();
    expect(new IngestPressure({ ...base, lag: at(4000) }).check()).toMatchObject({ reason: "projector_lag", retryAfterSeconds: 4 });
    expect(new IngestPressure({ ...base, lag: at(90_000) }).check()?.retryAfterSeconds).toBe(30);
  });

  it('given a lag above the setpoint, then the admitted rate is cut below what was admitted and excess requests are refused as rate', () => {
    let now = 0;
    let snap: LagSnapshot = { records: 1, ms: 0, observedAt: 1 };
    const p = new IngestPressure({ ...base, lag: () => snap, now: () => now });
    // One second at 1 MB/s under the setpoint.
    for (let i = 0; i < 10; i++) { now += 100; expect(p.check(100_000)).toBeUndefined(); }
    snap = { records: 1, ms: 3000, observedAt: now };
    now += 100;
    p.check(100_000);
    const limit = p.rateLimit()!;
    expect(limit).toBeGreaterThan(0);
    expect(limit).toBeLessThan(1_000_000);
    // Offered ten times the limit for a second: about the limit is admitted, the rest refused as 'rate'.
    let admitted = 0;
    let refusedRate = 0;
    for (let i = 0; i < 100; i++) {
      now += 10;
      const r = p.check(100_000);
      if (!r) admitted += 100_000; else if (r.reason === 'rate') refusedRate++;
    }
    expect(refusedRate).toBeGreaterThan(50);
    expect(admitted).toBeLessThanOrEqual(limit * 1.6);
  });

  it('given a stale or unknown lag, or shedding by lag off, then admitted', () => {
    expect(new IngestPressure({ ...base, lag: at(60_000, 1000), now: () => 7000 }).check()).toBeUndefined();
    expect(new IngestPressure({ ...base, lag: at(60_000, 0) }).check()).toBeUndefined();
    expect(new IngestPressure({ ...base, lagTargetMs: 0, lag: at(60_000) }).check()).toBeUndefined();
  });
});

describe('ingest pressure controller on a model of the pipeline', () => {
  const capacity = 2_000_000; // bytes/s the projector sustains

  // A cycle's fixed cost (fetch, read-before-write, the writer's wait, commit) sets how much of the
  // capacity a lag setpoint leaves: the age of the oldest record swings by about two cycles.
  it.each([2, 10])('given %i× the capacity offered and cycles with a 50 ms fixed cost, then goodput stays at ≥ 0.9 × capacity with ack→committed p99 ≤ 5 s of the model\'s time', (times) => {
    const r = simulate({ capacity, offer: times * capacity, seconds: 240, overheadMs: 50 });
    expect(r.goodput).toBeGreaterThanOrEqual(0.9 * capacity);
    // The model's own clock (simulated milliseconds), not the machine's.
    expect(r.p99SimulatedWaitMs).toBeLessThanOrEqual(5000);
    expect(r.refused).toBeGreaterThan(0);
  });

  it.each([2, 10])('given %i× the capacity offered and the span writer\'s 300 ms wait per cycle, then goodput stays at ≥ 0.65 × capacity with ack→committed p99 ≤ 5 s of the model\'s time', (times) => {
    const r = simulate({ capacity, offer: times * capacity, seconds: 240, overheadMs: 300 });
    expect(r.goodput).toBeGreaterThanOrEqual(0.65 * capacity);
    // The model's own clock (simulated milliseconds), not the machine's.
    expect(r.p99SimulatedWaitMs).toBeLessThanOrEqual(5000);
  });

  it('given half the capacity offered, then nothing is refused', () => {
    const r = simulate({ capacity, offer: 0.5 * capacity, seconds: 120, overheadMs: 50 });
    expect(r.refused).toBe(0);
    expect(r.goodput).toBeGreaterThan(0.45 * capacity);
  });
});
