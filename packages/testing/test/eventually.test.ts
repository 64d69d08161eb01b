import { describe, expect, it } from 'vitest';
import { eventually, EventuallyTimeoutError } from '../src/eventually.ts';

describe('eventually', () => {
  it('when the condition comes to hold, then the value that met it is returned', async () => {
    let n = 0;
    await expect(eventually(async () => ++n, (v) => v === 3, 5_000)).resolves.toBe(3);
  });

  it('when the condition never holds, then it throws naming the last value', async () => {
    const err = await eventually(async () => ({ count: 2 }), (v) => v.count === 3, 300).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EventuallyTimeoutError);
    expect((err as Error).message).toMatch(/within 300 ms .*last value: \{ count: 2 \}/);
  });

  it('when attempts throw, then it keeps polling and, on timeout, throws with the last error as cause', async () => {
    let n = 0;
    await expect(eventually(async () => { if (++n < 3) throw new Error('not yet'); return n; }, () => true, 5_000)).resolves.toBe(3);
    const boom = new Error('store away');
    const err = await eventually(async () => { throw boom; }, () => true, 300).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/last attempt threw: store away/);
    expect((err as Error).cause).toBe(boom);
  });
});
