// Reads for the operator's entity routes (compat §2.3): an API key by id alone (the operator is in
// no project), and the full rows the admin responses show.
import { asUuid, type Queryable } from '@llm/account-model';

export interface AdminApiKeyRow { id: string; prefix: string; project_id: string; user_id: string; revoked: boolean }

/** The key with this id, in whichever project (undefined for an unknown or malformed id). */
export async function findApiKeyById(q: Queryable, keyId: string): Promise<AdminApiKeyRow | undefined> {
  const id = asUuid(keyId);
  if (id === null) return undefined;
  const r = await q.query<AdminApiKeyRow>(
    `SELECT id::text AS id, prefix, project_id::text AS project_id, user_id::text AS user_id, revoked_at IS NOT NULL AS revoked
       FROM api_keys WHERE id = $1`, [id],
  );
  return r.rows[0];
}
