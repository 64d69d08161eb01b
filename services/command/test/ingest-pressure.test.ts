// Ingest admission: the backlog bound refuses at once; by lag, nothing below the soft threshold,
// a share rising to all at the hard one; a stale or missing lag admits (the backlog still bounds).
import { describe, expect, it } from 'vitest';
import { IngestPressure } from '../src/adapters/ingest-pressure.ts';

const at = (ms: number, observedAt = 1000) => () => ({ records: 1, ms, observedAt });

describe('ingest pressure', () => {
  const base = { lagSoftMs: 2000, lagHardMs: 4000, staleMs: 5000, maxPendingBytes: 1000, now: () => 2000 };

  it('given bytes waiting up to the bound, when checked, then refused with Retry-After 1 until they are released', () => {
    const p = new IngestPressure(base);
    const release = p.hold(1000);
    expect(p.check()).toMatchObject({ reason: 'backlog', retryAfterSeconds: 1 });
    release(); release();
    expect(p.check()).toBeUndefined();
  });

  it('given a lag below the soft threshold, then admitted; at the hard one and above, refused with its seconds', () => {
    expect(new IngestPressure({ ...base, lag: at(1999), random: () => 0 }).check()).toBeUndefined();
    expect(new IngestPressure({ ...base, lag: at(4000), random: () => 0.999 }).check()).toMatchObject({ reason: 'projector_lag', retryAfterSeconds: 4 });
    expect(new IngestPressure({ ...base, lag: at(90_000), random: () => 0.5 }).check()?.retryAfterSeconds).toBe(30);
  });

  it('given a lag halfway between the thresholds, then about half the requests are refused', () => {
    expect(new IngestPressure({ ...base, lag: at(3000), random: () => 0.49 }).check()).toBeDefined();
    expect(new IngestPressure({ ...base, lag: at(3000), random: () => 0.51 }).check()).toBeUndefined();
  });

  it('given a stale or unknown lag, or shedding by lag off, then admitted', () => {
    expect(new IngestPressure({ ...base, lag: at(60_000, 1000), now: () => 7000, random: () => 0 }).check()).toBeUndefined();
    expect(new IngestPressure({ ...base, lag: at(60_000, 0), random: () => 0 }).check()).toBeUndefined();
    expect(new IngestPressure({ ...base, lagSoftMs: 0, lag: at(60_000), random: () => 0 }).check()).toBeUndefined();
  });
});
