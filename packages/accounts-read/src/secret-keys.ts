// The one reader of the key store (secret_keys, 0010-secrets.sql): a secret's wrapped data key.
// Written by the command side only (services/command/src/vault/adapters/secret-key-store.ts).
import { asUuid, type Queryable } from '@llm/account-model';

export async function readWrappedKey(q: Queryable, ownerId: string, secretId: string): Promise<string | undefined> {
  const r = await q.query<{ wrapped_key: string }>('SELECT wrapped_key FROM secret_keys WHERE secret_id = $1::uuid AND owner_id = $2::uuid', [asUuid(secretId), asUuid(ownerId)]);
  return r.rows[0]?.wrapped_key;
}

/** One key-store row, as the rotation (`npm run secrets:rotate`) walks them. */
export interface WrappedKeyRow {
  secretId: string;
  ownerId: string;
  wrappedKey: string;
}

/**
 * One page of the key store in `secret_id` order, after `after` (exclusive; omit for the first
 * page). Keyset pagination: rows created or deleted meanwhile never shift the pages still to come,
 * and each page is an index range scan however far the walk has gone.
 */
export async function listWrappedKeys(q: Queryable, page: { after?: string; limit: number }): Promise<WrappedKeyRow[]> {
  const r = await q.query<{ secret_id: string; owner_id: string; wrapped_key: string }>(
    `SELECT secret_id::text, owner_id::text, wrapped_key FROM secret_keys
      WHERE $1::uuid IS NULL OR secret_id > $1::uuid ORDER BY secret_id LIMIT $2`,
    [page.after === undefined ? null : asUuid(page.after), page.limit],
  );
  return r.rows.map((row) => ({ secretId: row.secret_id, ownerId: row.owner_id, wrappedKey: row.wrapped_key }));
}

/**
 * How many data keys each key-encryption key wraps. The key id is the second dot-separated part of
 * the sealed form (`v1.<key id>.<iv>.<ciphertext>.<tag>`, @llm/oidc secret-box); a malformed value
 * counts under the empty id. Key ids are fingerprints, safe to print.
 */
export async function countWrappedKeysByKeyId(q: Queryable): Promise<Array<{ keyId: string; count: number }>> {
  const r = await q.query<{ key_id: string; n: string }>(
    "SELECT split_part(wrapped_key, '.', 2) AS key_id, count(*) AS n FROM secret_keys GROUP BY 1 ORDER BY 1",
  );
  return r.rows.map((row) => ({ keyId: row.key_id, count: Number(row.n) }));
}
