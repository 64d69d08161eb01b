// API-key lookup against the accounts read model (api_keys, read through @llm/accounts-read). A key
// acts for its creator, so it works only while the creator is still a member of the key's project
// (at any level) or owns its organization: removing a member disables their keys.
import { findUsableApiKey } from '@llm/account-model';
import type { Pool } from '@llm/postgres';
import type { ApiKeyLookup, ApiKeyRecord } from './authenticate.ts';

export function postgresApiKeyLookup(pool: Pool): ApiKeyLookup {
  return async (prefix, secretHash): Promise<ApiKeyRecord | undefined> => {
    const k = await findUsableApiKey(pool, prefix, secretHash);
    return k ? { projectId: k.project_id, workspaceId: k.workspace_id, organizationId: k.organization_id, userId: k.user_id, apiKeyId: k.id, expiresAtMs: k.expires_at?.getTime() } : undefined;
  };
}
