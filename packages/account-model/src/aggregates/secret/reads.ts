// The one reader of secrets (0010-secrets.sql; written by projector-accounts only): the secret
// aggregate's state and the rows the vault routes answer from (values still sealed).
import type { SecretEvent, SecretState } from './rules.ts';
import { textProblem } from '@llm/contracts';
import { asUuid, parseUuid, type Queryable } from '../../queryable.ts';

export interface SecretRow {
  id: string; project_id: string; slug: string; kind: string; name: string; description: string;
  public_data: Record<string, unknown>; sealed_data: string; write_only: boolean; managed_by: string | null; configured: boolean;
  created_at: Date; updated_at: Date | null; updated_by_id: string | null; version: number;
}

const COLUMNS = `id::text AS id, project_id::text AS project_id, slug, kind, name, description, public_data, sealed_data, write_only, managed_by,
  configured, created_at, updated_at, updated_by_id, version`;

/** What a secret event is decided on: the project's secrets (a project holds a handful), and any secret with its id. */
export async function loadSecretState(q: Queryable, e: SecretEvent): Promise<SecretState> {
  const [projectId, secretId] = e.type === 'accounts.secret.deleted' ? [e.payload.project_id, e.payload.secret_id] : [e.payload.secret.project_id, e.payload.secret.secret_id];
  const r = await q.query<{ id: string; project_id: string; slug: string; kind: string; name: string; managed_by: string | null; sub: string | null; version: number }>(
    `SELECT id::text AS id, project_id::text AS project_id, slug, kind, name, managed_by, version,
            CASE WHEN kind = 'subscription_provider' THEN public_data->>'provider' END AS sub
       FROM secrets WHERE project_id = $1::uuid OR id = $2::uuid ORDER BY created_at, id`,
    [asUuid(projectId), asUuid(secretId)],
  );
  return {
    secrets: r.rows.map((x) => ({ id: x.id, projectId: x.project_id, slug: x.slug, kind: x.kind, name: x.name, managedBy: x.managed_by ?? '', subscriptionProvider: x.sub ?? '', version: x.version })),
  };
}

export async function listSecrets(q: Queryable, projectId: string): Promise<SecretRow[]> {
  const r = await q.query<SecretRow>(`SELECT ${COLUMNS} FROM secrets WHERE project_id = $1::uuid ORDER BY created_at, id`, [asUuid(projectId)]);
  return r.rows;
}

/** A secret of the project by id (any UUID spelling) or, when the reference is not a UUID, by slug. */
export async function readSecret(q: Queryable, projectId: string, idOrSlug: string): Promise<SecretRow | undefined> {
  const id = parseUuid(idOrSlug);
  // A reference no slug can be (NUL, a lone surrogate) names nothing; Postgres would refuse the text.
  if (id === undefined && textProblem(idOrSlug) !== undefined) return undefined;
  const r = id !== undefined
    ? await q.query<SecretRow>(`SELECT ${COLUMNS} FROM secrets WHERE project_id = $1::uuid AND id = $2::uuid`, [asUuid(projectId), id])
    : await q.query<SecretRow>(`SELECT ${COLUMNS} FROM secrets WHERE project_id = $1::uuid AND slug = $2`, [asUuid(projectId), idOrSlug]);
  return r.rows[0];
}

/** Names of the project's secrets of a kind (provider-key numbering). */
export async function secretNames(q: Queryable, projectId: string, kind: string): Promise<string[]> {
  const r = await q.query<{ name: string }>('SELECT name FROM secrets WHERE project_id = $1::uuid AND kind = $2', [asUuid(projectId), kind]);
  return r.rows.map((x) => x.name);
}
