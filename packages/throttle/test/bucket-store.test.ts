// The bucket map stays bounded: recovered buckets are swept, and above the cap the least recently
// updated buckets are evicted.
import { describe, expect, it } from 'vitest';
import { BucketStore, gcra, gcraParams } from '../src/index.ts';

const T0 = 1_767_225_600_000;
const hobbyStandard = gcraParams(480, 480);

describe('bucket store', () => {
  it('given the default cap, when 200,000 distinct organizations each send a request at once, then at most 100,000 buckets are held', () => {
    const store = new BucketStore();
    for (let i = 0; i < 200_000; i++) {
      const key = `org-${i}|cloud_v0_hobby|standard`;
      const d = gcra(store.get(key), T0, hobbyStandard);
      store.set(key, d.state!, T0);
    }
    expect(store.size).toBeLessThanOrEqual(100_000);
    expect(store.size).toBeGreaterThanOrEqual(99_000);
    // The most recent ones are kept, the oldest went first.
    expect(store.get('org-199999|cloud_v0_hobby|standard')).toBeDefined();
    expect(store.get('org-0|cloud_v0_hobby|standard')).toBeUndefined();
  });

  it('given buckets that have recovered, when the sweep interval has passed, then the next write drops them', () => {
    const store = new BucketStore({ sweepEveryMs: 60_000 });
    store.set('a', { lastMs: T0, backlogMs: 125 }, T0); // first write sweeps an empty map
    store.set('b', { lastMs: T0, backlogMs: 120_000 }, T0);
    store.set('c', { lastMs: T0 + 1, backlogMs: 125 }, T0 + 1);
    expect(store.size).toBe(3);
    store.set('d', { lastMs: T0 + 60_000, backlogMs: 125 }, T0 + 60_000);
    // a and c recovered long ago; b has a minute of backlog left; d was just written.
    expect([...['a', 'b', 'c', 'd'].filter((k) => store.get(k))]).toEqual(['b', 'd']);
    expect(store.sweep(T0 + 200_000)).toBe(2);
    expect(store.size).toBe(0);
  });

  it('given a bucket that is updated again, then it becomes the most recent and survives eviction', () => {
    const store = new BucketStore({ maxKeys: 2 }); // 1% of 2 is 0: one eviction at a time
    store.set('a', { lastMs: T0, backlogMs: 1_000 }, T0);
    store.set('b', { lastMs: T0, backlogMs: 1_000 }, T0);
    store.set('a', { lastMs: T0, backlogMs: 2_000 }, T0);
    store.set('c', { lastMs: T0, backlogMs: 1_000 }, T0);
    expect(store.get('a')?.backlogMs).toBe(2_000);
    expect(store.get('b')).toBeUndefined();
    expect(store.size).toBe(2);
  });
});
