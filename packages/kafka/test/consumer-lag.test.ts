// The lag monitor against a scripted broker (records with timestamps per partition): records
// behind summed over partitions, the age of the oldest waiting record found on the ladder, a
// stopped group's age growing, failures keeping the last observation.
import { describe, expect, it } from 'vitest';
import { createLagMonitor } from '../src/consumer-lag.ts';

function broker() {
  const s = { stamps: new Map<number, number[]>([[0, []], [1, []]]), committed: new Map<number, bigint>(), fail: false, asked: 0 };
  const guard = () => { if (s.fail) throw new Error('broker away'); };
  const admin = {
    endOffsets: async () => { guard(); return new Map([...s.stamps].map(([p, ts]) => [p, BigInt(ts.length)])); },
    committedOffsets: async () => { guard(); return new Map(s.committed); },
    offsetsAfter: async (_topic: string, at: number) => {
      guard();
      s.asked++;
      return new Map([...s.stamps].map(([p, ts]) => { const i = ts.findIndex((x) => x >= at); return [p, BigInt(i)]; }));
    },
  };
  return { s, admin };
}

describe('consumer lag monitor', () => {
  it('given records waiting, when polled, then the count and the age of the oldest one on the ladder', async () => {
    const { s, admin } = broker();
    let t = 10_000;
    const m = createLagMonitor({ admin, topic: 'spans', groupId: 'g', pollMs: 1000, now: () => t });
    await m.poll();
    expect(m.snapshot()).toMatchObject({ records: 0, ms: 0, observedAt: 10_000, produced: 0, committed: 0 });
    // Partition 0: records stamped 6,950…9,850, the first 10 committed; partition 1: one stamped 9,800.
    s.stamps.set(0, Array.from({ length: 30 }, (_, i) => 6950 + i * 100));
    s.stamps.set(1, [9800]);
    s.committed = new Map([[0, 10n], [1, 0n]]);
    await m.poll();
    // The oldest waiting record is 7,950 (2,050 ms old): the ladder says at least 2,000.
    expect(m.snapshot()).toMatchObject({ produced: 31, committed: 10, records: 21, ms: 2000, observedAt: 10_000 });
    expect(s.asked).toBeLessThanOrEqual(5);
  });

  it('given a group that stopped, when polled later, then the age keeps growing', async () => {
    const { s, admin } = broker();
    let t = 1000;
    const m = createLagMonitor({ admin, topic: 'spans', groupId: 'g', pollMs: 1000, now: () => t });
    s.stamps.set(0, [900]);
    await m.poll();
    expect(m.snapshot().ms).toBe(0);
    t = 7000;
    await m.poll();
    expect(m.snapshot().ms).toBe(6000);
    t = 200_000;
    await m.poll();
    expect(m.snapshot().ms).toBe(128_000);
  });

  it('given the broker away, when polled, then the last observation stays and the error is reported', async () => {
    const { s, admin } = broker();
    const t = 0;
    const errors: unknown[] = [];
    const m = createLagMonitor({ admin, topic: 'spans', groupId: 'g', pollMs: 1000, now: () => t, onError: (e) => errors.push(e) });
    s.fail = true;
    await m.poll();
    expect(errors).toHaveLength(1);
    expect(m.snapshot().observedAt).toBe(0);
  });

  it('given nothing waiting, when started, then it polls at the idle pace until touched, then at the busy pace', async () => {
    const { admin } = broker();
    let polls = 0;
    const counting = { ...admin, endOffsets: async () => { polls++; return admin.endOffsets(); } };
    const m = createLagMonitor({ admin: counting, topic: 'spans', groupId: 'g', pollMs: 20, idlePollMs: 10_000 });
    m.start();
    await new Promise((r) => setTimeout(r, 200));
    expect(polls).toBe(1);
    m.touch();
    await new Promise((r) => setTimeout(r, 10));
    expect(polls).toBe(2);
    m.stop();
  });
});
