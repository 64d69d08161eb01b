// The read model's time limit: a query that outlives it fails as `unavailable` (503 with
// Retry-After at the HTTP edge), never as an empty result.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { AppError } from '@llm/errors';
import { ReadModel } from '@llm/span-read';

let dir: string;
let ch: Clickhouse;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'rm-'));
  ch = await openClickhouse({ dataDir: dir, database: 'llm' });
});
afterAll(async () => { await ch.close(); rmSync(dir, { recursive: true, force: true }); });

describe('read model', () => {
  it('when a query runs past the time limit, then it fails as unavailable instead of answering', async () => {
    const rm = new ReadModel(ch, 1000);
    // A trillion rows: it ends only because the limit stops it (else this test times out).
    const err = await rm.run('SELECT count() FROM numbers(1e12) WHERE sipHash64(number) % 7 = 3', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).kind).toBe('unavailable');
  });

  it('when a query is quick, then its rows come back', async () => {
    const rm = new ReadModel(ch, 1000);
    expect(await rm.run<{ n: string }>('SELECT toString(number) AS n FROM numbers(2)', {})).toEqual([{ n: '0' }, { n: '1' }]);
  });
});
