// The lag monitor's arithmetic against a scripted broker: records behind summed over partitions,
// time from the group's pace, a stalled group's lag growing with the stall, failures keeping the
// last observation.
import { describe, expect, it } from 'vitest';
import { createLagMonitor } from '../src/consumer-lag.ts';

function broker() {
  const s = { end: new Map<number, bigint>([[0, 0n], [1, 0n]]), committed: new Map<number, bigint>(), fail: false };
  const admin = {
    endOffsets: async () => { if (s.fail) throw new Error('broker away'); return new Map(s.end); },
    committedOffsets: async () => { if (s.fail) throw new Error('broker away'); return new Map(s.committed); },
  };
  return { s, admin };
}

describe('consumer lag monitor', () => {
  it('given a group keeping pace, when polled, then the lag is the worst partition\'s records behind divided by its pace', async () => {
    const { s, admin } = broker();
    let t = 0;
    const m = createLagMonitor({ admin, topic: 'spans', groupId: 'g', pollMs: 1000, now: () => t });
    await m.poll();
    expect(m.snapshot()).toEqual({ records: 0, ms: 0, observedAt: 0 });
    // A backlog appears; 2.5 s later partition 0 committed 500 (100 behind at 200/s → 500 ms),
    // partition 1 300 (100 behind at 120/s → 833 ms).
    t = 1000; s.end = new Map([[0, 600n], [1, 400n]]);
    await m.poll();
    t = 3500; s.committed = new Map([[0, 500n], [1, 300n]]);
    await m.poll();
    expect(m.snapshot()).toMatchObject({ records: 200, observedAt: 3500 });
    expect(m.snapshot().ms).toBeCloseTo(833.3, 0);
    // A second without a commit on partition 1: its oldest record has waited that much longer.
    t = 4500; s.committed = new Map([[0, 600n], [1, 300n]]);
    await m.poll();
    expect(m.snapshot().ms).toBeGreaterThan(1000);
  });

  it('given a group that stops while behind, when polled, then the lag grows with the stall', async () => {
    const { s, admin } = broker();
    let t = 0;
    const m = createLagMonitor({ admin, topic: 'spans', groupId: 'g', pollMs: 1000, now: () => t });
    s.end = new Map([[0, 100n]]); s.committed = new Map([[0, 100n]]);
    await m.poll();
    t = 1000; s.end = new Map([[0, 1100n]]);
    await m.poll();
    t = 6000; s.end = new Map([[0, 2100n]]);
    await m.poll();
    expect(m.snapshot().records).toBe(2000);
    expect(m.snapshot().ms).toBeGreaterThanOrEqual(5000);
  });

  it('given the broker away, when polled, then the last observation stays and the error is reported', async () => {
    const { s, admin } = broker();
    let t = 0;
    const errors: unknown[] = [];
    const m = createLagMonitor({ admin, topic: 'spans', groupId: 'g', pollMs: 1000, now: () => t, onError: (e) => errors.push(e) });
    await m.poll();
    t = 1000; s.fail = true;
    await m.poll();
    expect(errors).toHaveLength(1);
    expect(m.snapshot().observedAt).toBe(0);
  });
});
