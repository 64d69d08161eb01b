// The key store's writer (secret_keys, 0010-secrets.sql): each secret's wrapped data key. Not an
// event and not a projection — a replay never recreates a row, so deleting one shreds the secret.
// Read through @llm/accounts-read (secret-keys.ts).
import type { Pool } from '@llm/postgres';

export async function storeWrappedKey(pool: Pool, projectId: string, secretId: string, wrapped: string): Promise<void> {
  await pool.query('INSERT INTO secret_keys (secret_id, project_id, wrapped_key) VALUES ($1, $2, $3) ON CONFLICT (secret_id) DO NOTHING', [secretId, projectId, wrapped]);
}

export async function shredKey(pool: Pool, projectId: string, secretId: string): Promise<void> {
  await pool.query('DELETE FROM secret_keys WHERE secret_id = $1 AND project_id = $2', [secretId, projectId]);
}
