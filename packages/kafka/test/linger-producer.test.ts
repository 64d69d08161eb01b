import { describe, expect, it } from 'vitest';
import { LingerProducer } from '../src/linger-producer.ts';
import { RecordTooLargeError } from '../src/record-too-large.ts';
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

  it('when one caller sends a record above the record limit, then it alone is refused before anything is queued', async () => {
    const inner = new Recording();
    const p = new LingerProducer(inner, { lingerMs: 5, maxBatchRecords: 100, maxBatchBytes: 1 << 20, maxInFlight: 1, maxRecordBytes: 100 });
    const big: OutgoingRecord = { key: 'big', value: Buffer.alloc(200) };
    const results = await Promise.allSettled([p.send('t', [rec('a')]), p.send('t', [rec('b'), big]), p.send('t', [rec('c')])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(RecordTooLargeError);
    expect(inner.sends.flatMap((s) => s.keys)).toEqual(['a', 'c']);
  });

  it('when the broker refuses a shared send for the records of one caller, then each caller is sent on its own and only that caller fails', async () => {
    const sends: string[][] = [];
    const inner: Producer = {
      async send(_t, records) {
        const keys = records.map((r) => r.key);
        if (keys.includes('poison')) throw Object.assign(new Error('The request included a message larger than the max message size'), { type: 'MESSAGE_TOO_LARGE' });
        sends.push(keys);
      },
      async close() {},
    };
    const p = new LingerProducer(inner, { lingerMs: 5, maxBatchRecords: 100, maxBatchBytes: 1 << 20, maxInFlight: 1 });
    const results = await Promise.allSettled([p.send('t', [rec('a')]), p.send('t', [rec('poison')]), p.send('t', [rec('b'), rec('c')])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(sends).toEqual([['a'], ['b', 'c']]);
  });

  it('when the broker is away, then every caller of the send gets the error (no per-caller resend storm)', async () => {
    let calls = 0;
    const inner: Producer = { async send() { calls++; throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }); }, async close() {} };
    const p = new LingerProducer(inner, { lingerMs: 5, maxBatchRecords: 100, maxBatchBytes: 1 << 20, maxInFlight: 1 });
    const results = await Promise.allSettled([p.send('t', [rec('a')]), p.send('t', [rec('b')])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
  });

  it('when queued records exceed the batch byte limit, then they leave in several sends, in order, and each caller resolves once all its records went', async () => {
    const inner = new Recording();
    const p = new LingerProducer(inner, { lingerMs: 5, maxBatchRecords: 100, maxBatchBytes: 10, maxInFlight: 1 });
    const mk = (k: string): OutgoingRecord => ({ key: k, value: Buffer.alloc(4) });
    await Promise.all([p.send('t', [mk('a'), mk('b'), mk('c')]), p.send('t', [mk('d')])]);
    expect(inner.sends.map((s) => s.keys)).toEqual([['a', 'b'], ['c'], ['d']]);
  });
});
