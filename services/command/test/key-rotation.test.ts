import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretsKeyring } from '@llm/oidc';
import { newDataKey, unwrapDataKey, wrapDataKey } from '@llm/vault';
import { keyIdOf, needsRewrap, onlyActiveInUse, outcomeOf, planRewrap, rewrapTotal, type RowPlan } from '../src/vault/domain/key-rotation.ts';

const A = randomBytes(32);
const B = randomBytes(32);
const ringA = new SecretsKeyring([A]);
const ringB = new SecretsKeyring([B]);
const ringBA = new SecretsKeyring([B, A]);

function rowUnder(ring: SecretsKeyring, dataKey = newDataKey()) {
  const at = { ownerId: randomUUID(), secretId: randomUUID() };
  return { row: { ...at, wrappedKey: wrapDataKey(ring, dataKey, at) }, at, dataKey };
}

describe('key rotation: which rows need work', () => {
  it('when a value is sealed, then its key id is the second dot-separated part', () => {
    const { row } = rowUnder(ringA);
    expect(keyIdOf(row.wrappedKey)).toBe(ringA.currentKeyId);
    expect(keyIdOf('garbage')).toBe('');
    expect(keyIdOf('v1.abc')).toBe('abc');
  });

  it('when a row is under the active key, then it needs no work; under any other key (or malformed), it does', () => {
    expect(needsRewrap(rowUnder(ringB).row.wrappedKey, ringBA.currentKeyId)).toBe(false);
    expect(needsRewrap(rowUnder(ringA).row.wrappedKey, ringBA.currentKeyId)).toBe(true);
    expect(needsRewrap('garbage', ringBA.currentKeyId)).toBe(true);
  });

  it('when counting per key id, then the total leaves out the active key and "only active" ignores empty counts', () => {
    const counts = [{ keyId: ringA.currentKeyId, count: 3 }, { keyId: ringB.currentKeyId, count: 5 }, { keyId: '', count: 1 }];
    expect(rewrapTotal(counts, ringB.currentKeyId)).toBe(4);
    expect(onlyActiveInUse(counts, ringB.currentKeyId)).toBe(false);
    expect(onlyActiveInUse([{ keyId: ringB.currentKeyId, count: 5 }], ringB.currentKeyId)).toBe(true);
    expect(onlyActiveInUse([], ringB.currentKeyId)).toBe(true);
  });
});

describe('key rotation: what a row becomes', () => {
  it('when a row is under an old key of the ring, then it is re-wrapped under the active key to the same data key, bound to the same secret', () => {
    const { row, at, dataKey } = rowUnder(ringA);
    const plan = planRewrap(row, ringBA);
    expect(plan).toMatchObject({ action: 'rewrap', secretId: row.secretId, expected: row.wrappedKey });
    const next = (plan as Extract<RowPlan, { action: 'rewrap' }>).next;
    expect(keyIdOf(next)).toBe(ringB.currentKeyId);
    expect(unwrapDataKey(ringB, next, at).equals(dataKey)).toBe(true);
    // Still bound to its own project and secret: moved to another row, it does not open.
    expect(() => unwrapDataKey(ringB, next, { ...at, secretId: randomUUID() })).toThrow();
    expect(next).not.toContain(dataKey.toString('base64url'));
  });

  it('when a row is already under the active key, then it is left alone', () => {
    const { row } = rowUnder(ringB);
    expect(planRewrap(row, ringBA)).toEqual({ action: 'current', secretId: row.secretId });
  });

  it('when the ring cannot open a row, then it fails with a reason and nothing of the value', () => {
    const unknown = rowUnder(new SecretsKeyring([randomBytes(32)])).row;
    expect(planRewrap(unknown, ringBA)).toEqual({ action: 'failed', secretId: unknown.secretId, ownerId: unknown.ownerId, reason: 'unknown_key' });

    // Moved to another secret's row: the binding to project and secret id refuses it.
    const moved = { ...rowUnder(ringA).row, secretId: randomUUID() };
    expect(planRewrap(moved, ringBA)).toMatchObject({ action: 'failed', reason: 'authentication_failed' });

    const malformed = { ...rowUnder(ringA).row, wrappedKey: 'not-a-sealed-value' };
    const plan = planRewrap(malformed, ringBA);
    expect(plan).toMatchObject({ action: 'failed', reason: 'malformed' });
    expect(JSON.stringify(plan)).not.toContain('not-a-sealed-value');
  });
});

describe('key rotation: the compare-and-set decision', () => {
  const rewrap: RowPlan = { action: 'rewrap', secretId: 's1', expected: 'old', next: 'new' };

  it('when the store took the swap, then the row is re-wrapped', () => {
    expect(outcomeOf(rewrap, new Set(['s1']))).toBe('rewrapped');
  });

  it('when the store did not (deleted or changed since read), then it is skipped, not retried', () => {
    expect(outcomeOf(rewrap, new Set())).toBe('skipped');
  });

  it('when the row needed no swap or failed, then its outcome does not depend on the store', () => {
    expect(outcomeOf({ action: 'current', secretId: 's2' }, new Set(['s2']))).toBe('current');
    expect(outcomeOf({ action: 'failed', secretId: 's3', ownerId: 'p', reason: 'unknown_key' }, new Set())).toBe('failed');
  });
});
