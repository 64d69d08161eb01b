// The shared steps of account writes (adapters/account-commands.ts): the one retry on a lost version
// and the one declared compensation, as the routes use them.
import { describe, expect, it } from 'vitest';
import { AppError, conflict } from '@llm/errors';
import { isProjectionLag, projectionLag, untilApplied, withCompensation, type CommandOutcome } from '../src/accounts/adapters/account-commands.ts';

const applied: CommandOutcome = { status: 'applied' };
const changed: CommandOutcome = { status: 'rejected', code: 'secret_changed', message: 'The secret changed meanwhile.' };
const notFound: CommandOutcome = { status: 'rejected', code: 'secret_not_found', message: 'Secret not found.' };

describe('untilApplied', () => {
  it('when another change wins the version twice, then it reads and decides again and returns the applied try\'s value', async () => {
    const outcomes = [changed, changed, applied];
    const tries: number[] = [];
    const v = await untilApplied(['secret_changed'], async (n) => {
      tries.push(n);
      return { outcome: outcomes[n - 1]!, value: `v${n}` };
    });
    expect(v).toBe('v3');
    expect(tries).toEqual([1, 2, 3]);
  });

  it('when the rejection is not a version conflict, then it is thrown as its HTTP error at once', async () => {
    let tries = 0;
    const err = await untilApplied(['secret_changed'], async () => { tries++; return { outcome: notFound, value: 1 }; }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('secret_not_found');
    expect(tries).toBe(1);
  });

  it('when every try loses, then it stops at maxAttempts with the last conflict, or the error it was given', async () => {
    let tries = 0;
    const last = await untilApplied(['secret_changed'], async () => { tries++; return { outcome: changed, value: 1 }; }, { maxAttempts: 3 }).catch((e: unknown) => e);
    expect((last as AppError).code).toBe('secret_changed');
    expect(tries).toBe(3);
    const given = await untilApplied(['secret_changed'], async () => ({ outcome: changed, value: 1 }), { maxAttempts: 2, exhausted: () => conflict('too_busy', 'Retry.') }).catch((e: unknown) => e);
    expect((given as AppError).code).toBe('too_busy');
  });

  it('when a try answers done, then nothing more is tried and its value is returned', async () => {
    let tries = 0;
    expect(await untilApplied(['secret_changed'], async () => { tries++; return { done: 'created instead' }; })).toBe('created instead');
    expect(tries).toBe(1);
  });
});

describe('withCompensation', () => {
  const run = async (record: () => Promise<CommandOutcome>): Promise<{ undone: number; result: unknown }> => {
    let undone = 0;
    const result = await withCompensation(record, async () => { undone++; }).catch((e: unknown) => e);
    return { undone, result };
  };

  it('when the change is applied, then the prepared resource stays', async () => {
    expect(await run(async () => applied)).toEqual({ undone: 0, result: applied });
  });

  it('when the change is refused, then the prepared resource is undone and the refusal returned', async () => {
    expect(await run(async () => notFound)).toEqual({ undone: 1, result: notFound });
  });

  it('when the append fails, then the resource is undone and the error passes through', async () => {
    const boom = new Error('broker away');
    expect(await run(async () => { throw boom; })).toEqual({ undone: 1, result: boom });
  });

  it('when the change is in the log but not projected yet (projection_lag), then the resource stays: the change will apply', async () => {
    const { undone, result } = await run(async () => { throw projectionLag(); });
    expect(undone).toBe(0);
    expect(isProjectionLag(result)).toBe(true);
  });

  it('when undoing fails, then the change\'s own outcome is still what the caller gets', async () => {
    const result = await withCompensation(async () => notFound, async () => { throw new Error('key store away'); });
    expect(result).toEqual(notFound);
  });
});
