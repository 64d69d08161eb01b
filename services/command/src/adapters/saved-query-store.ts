// What the saved-query commands read from the projection (written by projector-accounts): the
// current state they decide on, and the projected resource they answer with (read-your-writes).
// The query service reads the same tables for GET /queries/… (one writer, two readers).
import type { SavedQueryResponse } from '@llm/contracts';
import type { Pool } from '@llm/postgres';

export interface VariantHead {
  queryId: string;
  variantId: string;
  /** The variant's latest revision version. */
  version: number;
}

export async function querySlugTaken(pool: Pool, projectId: string, slug: string): Promise<boolean> {
  const r = await pool.query('SELECT 1 FROM saved_queries WHERE project_id = $1 AND slug = $2', [projectId, slug]);
  return (r.rowCount ?? 0) > 0;
}

/** The default variant of a query of the project, or undefined (missing, or another project's). */
export async function readDefaultVariant(pool: Pool, projectId: string, queryId: string): Promise<VariantHead | undefined> {
  const r = await pool.query<{ query_id: string; id: string; latest_version: number }>(
    'SELECT query_id, id, latest_version FROM saved_query_variants WHERE query_id = $1 AND project_id = $2 AND is_default',
    [queryId, projectId],
  );
  const row = r.rows[0];
  return row ? { queryId: row.query_id, variantId: row.id, version: row.latest_version } : undefined;
}

interface RevisionRow {
  q_id: string; q_slug: string; q_name: string | null; q_description: string | null; q_created_at: Date; q_created_by_id: string | null;
  v_id: string; v_slug: string; v_created_at: Date;
  id: string; slug: string; version: number; filtering: unknown; windowing: unknown; focus: 'trace' | 'span' | null;
  format: 'agenta' | 'opentelemetry' | null; message: string | null; created_at: Date; created_by_id: string | null;
}

export async function readRevisionView(pool: Pool, projectId: string, revisionId: string): Promise<SavedQueryResponse | undefined> {
  const r = await pool.query<RevisionRow>(
    `SELECT q.id AS q_id, q.slug AS q_slug, q.name AS q_name, q.description AS q_description, q.created_at AS q_created_at,
            q.created_by_id AS q_created_by_id, v.id AS v_id, v.slug AS v_slug, v.created_at AS v_created_at,
            r.id, r.slug, r.version, r.filtering, r.windowing, r.focus, r.format, r.message, r.created_at, r.created_by_id
       FROM saved_query_revisions r
       JOIN saved_query_variants v ON v.id = r.variant_id
       JOIN saved_queries q ON q.id = r.query_id
      WHERE r.id = $1 AND r.project_id = $2`,
    [revisionId, projectId],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    query: { id: row.q_id, slug: row.q_slug, name: row.q_name, description: row.q_description, created_at: row.q_created_at.toISOString(), created_by_id: row.q_created_by_id },
    query_variant: { id: row.v_id, slug: row.v_slug, query_id: row.q_id, created_at: row.v_created_at.toISOString() },
    query_revision: {
      id: row.id, slug: row.slug, version: row.version, query_id: row.q_id, query_variant_id: row.v_id,
      data: { ...(row.filtering !== null ? { filtering: row.filtering } : {}), ...(row.windowing !== null ? { windowing: row.windowing } : {}) },
      formatting: { ...(row.focus ? { focus: row.focus } : {}), ...(row.format ? { format: row.format } : {}) },
      message: row.message, created_at: row.created_at.toISOString(), created_by_id: row.created_by_id,
    },
  };
}
