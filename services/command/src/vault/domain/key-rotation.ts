// The decisions of `npm run secrets:rotate`, apart from its I/O: which key-store rows need a
// re-wrap, what each row becomes, and what a lost compare-and-set means. Nothing here reads or
// writes the database; data keys in clear live only inside `planRewrap`.
import type { WrappedKeyRow } from '@llm/accounts-read';
import { SecretBoxError, type SecretBoxFailure, type SecretsKeyring } from '@llm/oidc';
import { unwrapDataKey, wrapDataKey } from '@llm/vault';

/**
 * The key-encryption key a wrapped value names: the second dot-separated part of the sealed form
 * `v1.<key id>.<iv>.<ciphertext>.<tag>`; empty when the value has no such part (as SQL's split_part).
 */
export const keyIdOf = (wrapped: string): string => wrapped.split('.')[1] ?? '';

/** A row needs work unless it is already wrapped under the active (first) key of the ring. */
export const needsRewrap = (wrapped: string, activeKeyId: string): boolean => keyIdOf(wrapped) !== activeKeyId;

/** Why a row could not be re-wrapped. Reasons only: never key material, never the stored value. */
export type RewrapFailure = SecretBoxFailure | 'invalid_data_key';

export type RowPlan =
  | { action: 'current'; secretId: string }
  | { action: 'rewrap'; secretId: string; expected: string; next: string }
  | { action: 'failed'; secretId: string; ownerId: string; reason: RewrapFailure };

/**
 * What one row becomes: left alone when current; otherwise its data key is unwrapped with the whole
 * ring and wrapped again under the active key, bound to the same project and secret id. A row the
 * ring cannot open is a failure to report, never a reason to delete it: the missing key may still
 * turn up (a ring configured without it), and deleting would shred the secret.
 */
export function planRewrap(row: WrappedKeyRow, ring: SecretsKeyring): RowPlan {
  if (!needsRewrap(row.wrappedKey, ring.currentKeyId)) return { action: 'current', secretId: row.secretId };
  const at = { ownerId: row.ownerId, secretId: row.secretId };
  let dataKey: Buffer;
  try {
    dataKey = unwrapDataKey(ring, row.wrappedKey, at);
  } catch (err) {
    const reason: RewrapFailure = err instanceof SecretBoxError ? err.reason : 'invalid_data_key';
    return { action: 'failed', secretId: row.secretId, ownerId: row.ownerId, reason };
  }
  try {
    return { action: 'rewrap', secretId: row.secretId, expected: row.wrappedKey, next: wrapDataKey(ring, dataKey, at) };
  } finally {
    // The clear data key is not needed past this point; do not leave it on the heap until GC.
    dataKey.fill(0);
  }
}

export type RowOutcome = 'current' | 'rewrapped' | 'skipped' | 'failed';

/**
 * The compare-and-set decision, after the batch's conditional UPDATE: a planned re-wrap the store
 * did not take lost the race — its row was deleted (shredded) or changed since it was read — and is
 * skipped, never retried or re-inserted, so a concurrent delete or create is never undone.
 */
export function outcomeOf(plan: RowPlan, swapped: ReadonlySet<string>): RowOutcome {
  if (plan.action !== 'rewrap') return plan.action;
  return swapped.has(plan.secretId) ? 'rewrapped' : 'skipped';
}

export interface KeyIdCount {
  keyId: string;
  count: number;
}

/** How many rows a run will have to re-wrap, from the store's count per key id. */
export const rewrapTotal = (counts: readonly KeyIdCount[], activeKeyId: string): number =>
  counts.reduce((n, c) => (c.keyId === activeKeyId ? n : n + c.count), 0);

/** Whether every key other than the active one may leave the ring, as far as the key store goes. */
export const onlyActiveInUse = (counts: readonly KeyIdCount[], activeKeyId: string): boolean =>
  counts.every((c) => c.count === 0 || c.keyId === activeKeyId);
