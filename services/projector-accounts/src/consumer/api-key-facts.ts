// Reads, inside the batch transaction, what the API key projection decides on.
import type { PoolClient } from '@llm/postgres';
import type { ApiKeyFacts, ApiKeyFactsNeeded } from '../domain/api-key-projection.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const asUuid = (s: string): string | null => (UUID.test(s) ? s : null);

export async function readApiKeyFacts(c: PoolClient, need: ApiKeyFactsNeeded): Promise<ApiKeyFacts> {
  const r = await c.query<{ project_exists: boolean; revoked: boolean | null }>(
    `SELECT EXISTS (SELECT 1 FROM projects WHERE id = $1::uuid) AS project_exists,
            (SELECT revoked_at IS NOT NULL FROM api_keys WHERE id = $2::uuid AND project_id = $1::uuid) AS revoked`,
    [asUuid(need.projectId), asUuid(need.keyId)],
  );
  const row = r.rows[0]!;
  return { projectExists: row.project_exists, ...(row.revoked !== null ? { key: { revoked: row.revoked } } : {}) };
}
