// The rotation behind `npm run secrets:rotate`: re-wraps every data key of the key store
// (secret_keys) under the active key-encryption key, so the older keys can leave SECRETS_KEY.
// The log is never touched: only the wrapping of each secret's data key changes, never the key.
//
// Safe beside live traffic and beside another run: rows are read in keyset pages, re-wrapped in
// memory, and written back with a compare-and-set per row (adapters/secret-key-store.ts), so a
// secret created or deleted meanwhile is never undone. One statement per batch, not a transaction
// around read + write: the crypto runs with no lock held, and each row's condition makes the write
// correct on its own. A batch cut short (connection lost) changes nothing it did not finish, and a
// rerun resumes, since rows already under the active key are skipped.
import { countWrappedKeysByKeyId, listWrappedKeys, type WrappedKeyRow } from '@llm/accounts-read';
import type { SecretsKeyring } from '@llm/oidc';
import type { Pool } from '@llm/postgres';
import { compareAndSetWrappedKeys } from './adapters/secret-key-store.ts';
import { onlyActiveInUse, outcomeOf, planRewrap, rewrapTotal, type KeyIdCount, type RewrapFailure } from './domain/key-rotation.ts';

export const DEFAULT_ROTATE_BATCH = 500;

export interface RotateOptions {
  /** Rows read (and written) per batch; default 500. */
  batchSize?: number;
  /** Count and try to open every row, write nothing. */
  dryRun?: boolean;
}

export interface RotateFailure {
  secretId: string;
  ownerId: string;
  reason: RewrapFailure;
}

export interface RotateProgress {
  /** Before the walk: rows not under the active key (the progress total). */
  onStart?(total: number): void;
  /** After a batch is read and before it is written; awaited (tests use it to race the write). */
  onBatchRead?(rows: readonly WrappedKeyRow[]): void | Promise<void>;
  /** Rows needing work handled so far; `total` grows when rows under an old key appear meanwhile. */
  onProgress?(done: number, total: number): void;
  onFailure?(failure: RotateFailure): void;
}

export interface RotateResult {
  activeKeyId: string;
  dryRun: boolean;
  /** Re-wrapped (in a dry run: would be re-wrapped). */
  rewrapped: number;
  alreadyCurrent: number;
  /** Deleted or changed between read and write: left as they are. */
  skipped: number;
  failed: number;
  failures: RotateFailure[];
  /** Rows per key id once the run is over; safe to print (key ids are fingerprints). */
  keysInUse: KeyIdCount[];
  /** No row is wrapped under another key than the active one. */
  onlyActiveInUse: boolean;
  elapsedMs: number;
}

export async function rotateSecretKeys(pool: Pool, ring: SecretsKeyring, options: RotateOptions = {}, progress: RotateProgress = {}): Promise<RotateResult> {
  const started = performance.now();
  const batchSize = options.batchSize ?? DEFAULT_ROTATE_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');
  const dryRun = options.dryRun ?? false;
  const activeKeyId = ring.currentKeyId;

  let total = rewrapTotal(await countWrappedKeysByKeyId(pool), activeKeyId);
  progress.onStart?.(total);
  const tally = { rewrapped: 0, alreadyCurrent: 0, skipped: 0, failed: 0 };
  const failures: RotateFailure[] = [];
  let done = 0;
  let after: string | undefined;
  for (;;) {
    const rows = await listWrappedKeys(pool, { after, limit: batchSize });
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.secretId;
    const plans = rows.map((row) => planRewrap(row, ring));
    await progress.onBatchRead?.(rows);
    const swaps = plans.flatMap((p) => (p.action === 'rewrap' ? [{ secretId: p.secretId, expected: p.expected, next: p.next }] : []));
    // A dry run counts a planned re-wrap as if the store had taken it.
    const swapped = dryRun ? new Set(swaps.map((s) => s.secretId)) : await compareAndSetWrappedKeys(pool, swaps);
    for (const plan of plans) {
      const outcome = outcomeOf(plan, swapped);
      if (outcome === 'current') { tally.alreadyCurrent++; continue; }
      done++;
      if (outcome === 'rewrapped') tally.rewrapped++;
      else if (outcome === 'skipped') tally.skipped++;
      else if (plan.action === 'failed') {
        tally.failed++;
        const failure = { secretId: plan.secretId, ownerId: plan.ownerId, reason: plan.reason };
        failures.push(failure);
        progress.onFailure?.(failure);
      }
    }
    total = Math.max(total, done);
    progress.onProgress?.(done, total);
    if (rows.length < batchSize) break;
  }

  const keysInUse = await countWrappedKeysByKeyId(pool);
  return {
    activeKeyId, dryRun, ...tally, failures, keysInUse,
    onlyActiveInUse: onlyActiveInUse(keysInUse, activeKeyId),
    elapsedMs: Math.round(performance.now() - started),
  };
}
