// The key store's writer (secret_keys, 0010-secrets.sql): each secret's wrapped data key. Not an
// event and not a projection — a replay never recreates a row, so deleting one shreds the secret.
// Read through @llm/accounts-read (secret-keys.ts).
import type { Pool } from '@llm/postgres';

export async function storeWrappedKey(pool: Pool, ownerId: string, secretId: string, wrapped: string): Promise<void> {
  await pool.query('INSERT INTO secret_keys (secret_id, owner_id, wrapped_key) VALUES ($1, $2, $3) ON CONFLICT (secret_id) DO NOTHING', [secretId, ownerId, wrapped]);
}

export async function shredKey(pool: Pool, ownerId: string, secretId: string): Promise<void> {
  await pool.query('DELETE FROM secret_keys WHERE secret_id = $1 AND owner_id = $2', [secretId, ownerId]);
}

/** A re-wrap of one row: write `next` only if the row still holds `expected`. */
export interface WrappedKeySwap {
  secretId: string;
  expected: string;
  next: string;
}

/**
 * Rotation's compare-and-set: each row takes its new wrapped key only if it still holds the one the
 * rotation read, so a row deleted meanwhile stays deleted (an UPDATE never inserts) and a row changed
 * meanwhile keeps its newer value. The whole batch is one statement — one round trip, and row locks
 * held only for its duration; each row's condition stands alone, so no wider transaction is needed.
 * Returns the ids that were swapped.
 */
export async function compareAndSetWrappedKeys(pool: Pool, swaps: readonly WrappedKeySwap[]): Promise<Set<string>> {
  if (swaps.length === 0) return new Set();
  const r = await pool.query<{ secret_id: string }>(
    `UPDATE secret_keys AS s SET wrapped_key = u.next
       FROM unnest($1::uuid[], $2::text[], $3::text[]) AS u(secret_id, expected, next)
      WHERE s.secret_id = u.secret_id AND s.wrapped_key = u.expected
      RETURNING s.secret_id::text`,
    [swaps.map((s) => s.secretId), swaps.map((s) => s.expected), swaps.map((s) => s.next)],
  );
  return new Set(r.rows.map((row) => row.secret_id));
}

/** Shreds every key owned by these projects or organizations (their secrets go with them). */
export async function shredKeysOfOwners(pool: Pool, ownerIds: readonly string[]): Promise<void> {
  if (ownerIds.length === 0) return;
  await pool.query('DELETE FROM secret_keys WHERE owner_id::text = ANY($1::text[])', [ownerIds]);
}
