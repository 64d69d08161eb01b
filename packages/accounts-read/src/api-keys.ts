// API keys as projected, without their hashes.
import type { ApiKeyRow } from '@llm/contracts';
import type { Pool } from '@llm/postgres';

const COLUMNS = 'id::text AS id, project_id::text AS project_id, user_id::text AS user_id, prefix, name, created_at, expires_at, revoked_at';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function listApiKeys(pool: Pool, projectId: string): Promise<ApiKeyRow[]> {
  const r = await pool.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE project_id::text = $1 ORDER BY created_at, id`, [projectId]);
  return r.rows;
}

/** A key of the project by id or by prefix. */
export async function readApiKey(pool: Pool, projectId: string, idOrPrefix: string): Promise<ApiKeyRow | undefined> {
  const byId = UUID.test(idOrPrefix);
  const r = await pool.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE project_id::text = $1 AND ${byId ? 'id = $2::uuid' : 'prefix = $2'}`, [projectId, idOrPrefix],
  );
  return r.rows[0];
}
