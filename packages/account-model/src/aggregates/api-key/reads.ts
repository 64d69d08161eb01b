// The one reader of api_keys (0001-accounts.sql, names from 0005): the API key aggregate's state, the
// keys as listed (never their hashes), and the key a credential presents.
import type { ApiKeyEvent, ApiKeyState } from './rules.ts';
import type { ApiKeyRow } from '@llm/contracts';
import { asUuid, isUuid, type Queryable } from '../../queryable.ts';
import { existingProjects } from '../project/projects.ts';

const COLUMNS = 'id::text AS id, project_id::text AS project_id, user_id::text AS user_id, prefix, name, created_at, expires_at, revoked_at';

/** What a key event is decided on: its project (when it exists) and the key with its id. */
export const loadApiKeyState = (q: Queryable, e: ApiKeyEvent): Promise<ApiKeyState> => loadApiKeys(q, [e.payload.project_id], [e.payload.key_id]);

/** The projects among these that exist, and the keys with these ids (in any project). */
export async function loadApiKeys(q: Queryable, projectIds: string[], keyIds: string[]): Promise<ApiKeyState> {
  const ids = keyIds.map(asUuid).filter((x): x is string => x !== null);
  // One query after the other: `q` may be the projector's transaction client, which runs one at a time.
  const projects = await existingProjects(q, projectIds);
  const keys = ids.length === 0 ? [] : (await q.query<{ id: string; project_id: string; revoked: boolean }>(
    'SELECT id::text AS id, project_id::text AS project_id, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = ANY($1::uuid[]) ORDER BY created_at, id', [ids],
  )).rows;
  return { projects: projects.map((id) => ({ id })), keys: keys.map((k) => ({ id: k.id, projectId: k.project_id, revoked: k.revoked })) };
}

export async function listApiKeys(q: Queryable, projectId: string): Promise<ApiKeyRow[]> {
  const r = await q.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE project_id::text = $1 ORDER BY created_at, id`, [projectId]);
  return r.rows;
}

/** A key of the project by id or by prefix. */
export async function readApiKey(q: Queryable, projectId: string, idOrPrefix: string): Promise<ApiKeyRow | undefined> {
  const byId = isUuid(idOrPrefix);
  const r = await q.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE project_id::text = $1 AND ${byId ? 'id = $2::uuid' : 'prefix = $2'}`, [projectId, idOrPrefix],
  );
  return r.rows[0];
}

/** A key as a credential resolves: where it acts, for whom, and until when. */
export interface UsableApiKey { id: string; project_id: string; workspace_id: string; organization_id: string; user_id: string; expires_at: Date | null }

/**
 * The non-revoked, unexpired key with this prefix and secret hash. A key acts for its creator, so it
 * works only while the creator is still a member of the key's project (at any level) or owns its
 * organization: removing a member disables their keys.
 */
export async function findUsableApiKey(q: Queryable, prefix: string, secretHash: string): Promise<UsableApiKey | undefined> {
  const r = await q.query<UsableApiKey>(
    `SELECT k.id, k.project_id, p.workspace_id, p.organization_id, k.user_id, k.expires_at
       FROM api_keys k JOIN projects p ON p.id = k.project_id
      WHERE k.prefix = $1 AND k.secret_hash = $2 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
        AND (EXISTS (SELECT 1 FROM organizations o WHERE o.id = p.organization_id AND o.owner_id = k.user_id)
             OR EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = k.user_id AND (
                  (m.scope = 'project' AND m.scope_id = p.id) OR (m.scope = 'workspace' AND m.scope_id = p.workspace_id)
                  OR (m.scope = 'organization' AND m.scope_id = p.organization_id))))`,
    [prefix, secretHash],
  );
  return r.rows[0];
}
