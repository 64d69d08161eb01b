import { describe, expect, it } from 'vitest';
import type { FailureClass } from '@llm/errors';
import { applyWithPolicy, runWithPolicy, setAsideBreaker, type ApplyPolicy } from '../src/apply-with-policy.ts';
import type { Consumer, IncomingBatch } from '../src/ports.ts';

class Refused extends Error { kind: FailureClass = 'deterministic'; }
class Away extends Error { kind: FailureClass = 'transient'; }

const batchOf = (n: number): IncomingBatch => ({
  topic: 't', partition: 0,
  records: Array.from({ length: n }, (_, i) => ({ topic: 't', partition: 0, offset: BigInt(i), key: `k${i}`, value: Buffer.from([i]), timestampMs: 0 })),
});

function harness(fail: (offsets: bigint[], call: number) => Error | undefined) {
  const applied: bigint[] = [];
  const setAside: Array<{ offset: bigint; reason: string }> = [];
  let calls = 0;
  let retries = 0;
  const policy: ApplyPolicy = {
    async apply(b) {
      const offsets = b.records.map((r) => r.offset);
      const err = fail(offsets, calls++);
      if (err) throw err;
      applied.push(...offsets);
    },
    classify: (err) => (err as Refused | Away).kind ?? 'transient',
    async setAside(rec, reason) { setAside.push({ offset: rec.offset, reason }); },
    stopping: () => false,
    onRetry: () => { retries++; },
    baseDelayMs: 1, maxDelayMs: 2,
  };
  return { policy, applied, setAside, retries: () => retries };
}

describe('applyWithPolicy', () => {
  it('when one record of a batch is refused, then it alone is set aside and the others are applied in order', async () => {
    const h = harness((offsets) => (offsets.includes(5n) ? new Refused('NUL in text') : undefined));
    await applyWithPolicy(batchOf(10), h.policy);
    expect(h.applied).toEqual([0n, 1n, 2n, 3n, 4n, 6n, 7n, 8n, 9n]);
    expect(h.setAside).toEqual([{ offset: 5n, reason: 'NUL in text' }]);
  });

  it('when the store is away for a while, then the same batch is retried until it is applied and nothing is set aside', async () => {
    const h = harness((_o, call) => (call < 4 ? new Away('ECONNREFUSED') : undefined));
    await applyWithPolicy(batchOf(3), h.policy);
    expect(h.applied).toEqual([0n, 1n, 2n]);
    expect(h.setAside).toEqual([]);
    expect(h.retries()).toBe(4);
  });

  it('when a transient failure hits while a refused record is being isolated, then it is retried, not set aside', async () => {
    let awayOnce = true;
    const h = harness((offsets) => {
      if (offsets.includes(2n)) return new Refused('bad row');
      if (offsets.length === 1 && offsets[0] === 3n && awayOnce) { awayOnce = false; return new Away('timeout'); }
      return undefined;
    });
    await applyWithPolicy(batchOf(4), h.policy);
    expect(h.applied).toEqual([0n, 1n, 3n]);
    expect(h.setAside.map((s) => s.offset)).toEqual([2n]);
  });

  it('when the consumer is stopping, then the failure is handed back instead of retried', async () => {
    const h = harness(() => new Away('down'));
    h.policy.stopping = () => true;
    await expect(applyWithPolicy(batchOf(2), h.policy)).rejects.toThrow('down');
  });

  it('when many records in a row are refused (a likely systemic fault), then set-asides beyond the threshold wait first, and an applied record resets the count', async () => {
    const trips: string[] = [];
    const h = harness((offsets) => (offsets.some((o) => o < 6n) ? new Refused('unknown column') : undefined));
    h.policy.breaker = setAsideBreaker(3, 20, (r) => trips.push(r));
    const t0 = Date.now();
    await applyWithPolicy(batchOf(8), h.policy);
    expect(h.setAside.map((s) => s.offset)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    expect(h.applied).toEqual([6n, 7n]);
    expect(trips).toHaveLength(3);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
    expect(h.policy.breaker.consecutive).toBe(0);
  });
});

describe('runWithPolicy', () => {
  it('when the consumer is stopped while a batch keeps failing transiently, then the retries give up and the batch is handed back', async () => {
    let handler: ((b: IncomingBatch) => Promise<void>) | undefined;
    const consumer: Consumer = { start: async (h) => { handler = h; }, stop: async () => undefined, ready: async () => undefined };
    let attempts = 0;
    const run = runWithPolicy(consumer, {
      apply: async () => { attempts++; throw new Away('down'); },
      classify: () => 'transient',
      setAside: async () => undefined,
      baseDelayMs: 1, maxDelayMs: 2,
    });
    await run.start();
    const pending = handler!(batchOf(1));
    await new Promise((r) => setTimeout(r, 20));
    await run.stop();
    await expect(pending).rejects.toThrow('down');
    expect(attempts).toBeGreaterThan(1);
  });
});
