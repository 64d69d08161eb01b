// The one reader of the key store (secret_keys, 0010-secrets.sql): a secret's wrapped data key.
// Written by the command side only (services/command/src/adapters/secret-key-store.ts).
import { asUuid, type Queryable } from './queryable.ts';

export async function readWrappedKey(q: Queryable, projectId: string, secretId: string): Promise<string | undefined> {
  const r = await q.query<{ wrapped_key: string }>('SELECT wrapped_key FROM secret_keys WHERE secret_id = $1::uuid AND project_id::text = $2', [asUuid(secretId), projectId]);
  return r.rows[0]?.wrapped_key;
}
