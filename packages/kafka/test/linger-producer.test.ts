import { describe, expect, it } from 'vitest';
import { LingerProducer } from '../src/linger-producer.ts';
import type { OutgoingRecord, Producer } from '../src/ports.ts';

class Recording implements Producer {
  sends: Array<{ topic: string; keys: string[] }> = [];
  failNext = false;
  async send(topic: string, records: OutgoingRecord[]): Promise<void> {
    await new Promise((r) => setTimeout(r, 5));
    if (this.failNext) { this.failNext = false; throw new Error('broker says no'); }
    this.sends.push({ topic, keys: records.map((r) => r.key) });
  }
  async close(): Promise<void> {}
}

const rec = (key: string): OutgoingRecord => ({ key, value: Buffer.from(key) });

describe('linger producer', () => {
  it('when callers send within the linger window, then one send carries them all, in call order', async () => {
    const inner = new Recording();
    const p = new LingerProducer(inner, { lingerMs: 20, maxBatchRecords: 100, maxBatchBytes: 1 << 20, maxInFlight: 1 });
    await Promise.all([p.send('t', [rec('a')]), p.send('t', [rec('b'), rec('c')]), p.send('t', [rec('d')])]);
    expect(inner.sends).toEqual([{ topic: 't', keys: ['a', 'b', 'c', 'd'] }]);
  });

  it('when a batch fails, then exactly its callers reject and later batches still go', async () => {
    const inner = new Recording();
    const p = new LingerProducer(inner, { lingerMs: 1, maxBatchRecords: 100, maxBatchBytes: 1 << 20, maxInFlight: 1 });
    inner.failNext = true;
    await expect(p.send('t', [rec('x')])).rejects.toThrow('broker says no');
    await p.send('t', [rec('y')]);
    expect(inner.sends).toEqual([{ topic: 't', keys: ['y'] }]);
  });

  it('when the record limit is reached, then the batch leaves at once and batches keep their order', async () => {
    const inner = new Recording();
    const p = new LingerProducer(inner, { lingerMs: 1_000, maxBatchRecords: 2, maxBatchBytes: 1 << 20, maxInFlight: 1 });
    await Promise.all([p.send('t', [rec('a'), rec('b')]), p.send('t', [rec('c'), rec('d')])]);
    expect(inner.sends.map((s) => s.keys)).toEqual([['a', 'b'], ['c', 'd']]);
  });
});
