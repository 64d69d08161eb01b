// API-key lookup against the accounts read model (tables owned by projector-accounts). A key acts
// for its creator, so it works only while the creator is still a member of the key's project (at
// any level) or owns its organization: removing a member disables their keys.
import type { Pool } from '@llm/postgres';
import type { ApiKeyLookup, ApiKeyRecord } from './authenticate.ts';

export function postgresApiKeyLookup(pool: Pool): ApiKeyLookup {
  return async (prefix, secretHash): Promise<ApiKeyRecord | undefined> => {
    const r = await pool.query<{ id: string; project_id: string; workspace_id: string; organization_id: string; user_id: string; expires_at: Date | null }>(
      `SELECT k.id, k.project_id, p.workspace_id, p.organization_id, k.user_id, k.expires_at
         FROM api_keys k JOIN projects p ON p.id = k.project_id
        WHERE k.prefix = $1 AND k.secret_hash = $2 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
          AND (EXISTS (SELECT 1 FROM organizations o WHERE o.id = p.organization_id AND o.owner_id = k.user_id)
               OR EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = k.user_id AND (
                    (m.scope = 'project' AND m.scope_id = p.id) OR (m.scope = 'workspace' AND m.scope_id = p.workspace_id)
                    OR (m.scope = 'organization' AND m.scope_id = p.organization_id))))`,
      [prefix, secretHash],
    );
    const k = r.rows[0];
    return k ? { projectId: k.project_id, workspaceId: k.workspace_id, organizationId: k.organization_id, userId: k.user_id, apiKeyId: k.id, expiresAtMs: k.expires_at?.getTime() } : undefined;
  };
}
