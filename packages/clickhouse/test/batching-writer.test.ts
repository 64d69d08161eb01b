import { describe, expect, it } from 'vitest';
import { createLogger } from '@llm/logging';
import { BatchingWriter } from '../src/batching-writer.ts';

const log = createLogger({ name: 'test', level: 'silent' });
const refused = Object.assign(new Error('CANNOT_PARSE_DATETIME'), { kind: 'deterministic' as const });
const away = Object.assign(new Error('TOO_MANY_PARTS'), { kind: 'transient' as const });
const classify = (e: unknown) => (e as { kind?: 'deterministic' | 'transient' }).kind ?? 'transient';

describe('BatchingWriter', () => {
  it('when one caller of a shared insert has rows ClickHouse refuses, then only that caller fails and the others are written', async () => {
    const written: number[] = [];
    const w = new BatchingWriter<{ n: number }>({
      log, classify, maxDelayMs: 5,
      async insert(rows) { if (rows.some((r) => r.n === 13)) throw refused; written.push(...rows.map((r) => r.n)); },
    });
    const results = await Promise.allSettled([w.write([{ n: 1 }, { n: 2 }]), w.write([{ n: 13 }]), w.write([{ n: 3 }])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(written.sort()).toEqual([1, 2, 3]);
  });

  it('when ClickHouse is out of capacity for longer than the writer retries, then every caller gets the error back (nothing is dropped)', async () => {
    let calls = 0;
    const w = new BatchingWriter<{ n: number }>({ log, classify, maxDelayMs: 1, attempts: 2, async insert() { calls++; throw away; } });
    const results = await Promise.allSettled([w.write([{ n: 1 }]), w.write([{ n: 2 }])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(2);
  });

  it('when capacity comes back within the attempts, then the rows are written once', async () => {
    let calls = 0;
    const written: number[] = [];
    const w = new BatchingWriter<{ n: number }>({ log, classify, maxDelayMs: 1, attempts: 5, async insert(rows) { if (calls++ < 2) throw away; written.push(...rows.map((r) => r.n)); } });
    await w.write([{ n: 7 }]);
    expect(written).toEqual([7]);
  });
});
