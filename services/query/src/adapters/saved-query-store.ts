// Reads saved queries from their Postgres projection (written only by projector-accounts): the
// revision a saved-query reference names, and the views of GET /queries/….
import type { SavedQueryResponse, SavedQueryRevisionsResponse } from '@llm/contracts';
import type { Pool } from '@llm/postgres';
import type { RevisionLookup, StoredRevision } from '../domain/resolve-saved-query.ts';

type RevisionView = SavedQueryResponse['query_revision'];

interface RevisionRow {
  id: string; slug: string; version: number; query_id: string; variant_id: string; filtering: unknown; windowing: unknown;
  focus: 'trace' | 'span' | null; format: 'agenta' | 'opentelemetry' | null; message: string | null; created_at: Date; created_by_id: string | null;
}

const REVISION_COLUMNS = 'r.id, r.slug, r.version, r.query_id, r.variant_id, r.filtering, r.windowing, r.focus, r.format, r.message, r.created_at, r.created_by_id';

function revisionView(row: RevisionRow): RevisionView {
  return {
    id: row.id, slug: row.slug, version: row.version, query_id: row.query_id, query_variant_id: row.variant_id,
    data: { ...(row.filtering !== null ? { filtering: row.filtering } : {}), ...(row.windowing !== null ? { windowing: row.windowing } : {}) },
    formatting: { ...(row.focus ? { focus: row.focus } : {}), ...(row.format ? { format: row.format } : {}) },
    message: row.message, created_at: row.created_at.toISOString(), created_by_id: row.created_by_id,
  };
}

export class SavedQueryStore {
  constructor(private readonly pool: Pool) {}

  /** The revision meeting every constraint of `lookup` (the latest when no version is named). */
  async findRevision(projectId: string, lookup: RevisionLookup): Promise<StoredRevision | undefined> {
    const r = await this.pool.query<{ filtering: unknown; windowing: unknown; focus: 'trace' | 'span' | null }>(
      `SELECT r.filtering, r.windowing, r.focus
         FROM saved_query_revisions r
         JOIN saved_query_variants v ON v.id = r.variant_id
         JOIN saved_queries q ON q.id = r.query_id
        WHERE r.project_id = $1
          AND ($2::uuid IS NULL OR q.id = $2) AND ($3::text IS NULL OR q.slug = $3)
          AND ($4::uuid IS NULL OR v.id = $4) AND ($5::text IS NULL OR v.slug = $5) AND (NOT $6::boolean OR v.is_default)
          AND ($7::uuid IS NULL OR r.id = $7) AND ($8::text IS NULL OR r.slug = $8) AND ($9::int IS NULL OR r.version = $9)
        ORDER BY r.version DESC
        LIMIT 1`,
      [projectId, lookup.queryId ?? null, lookup.querySlug ?? null, lookup.variantId ?? null, lookup.variantSlug ?? null,
        lookup.defaultVariant, lookup.revisionId ?? null, lookup.revisionSlug ?? null, lookup.version ?? null],
    );
    return r.rows[0];
  }

  /** A query with its default variant and that variant's latest revision. */
  async latest(projectId: string, queryId: string): Promise<SavedQueryResponse | undefined> {
    return this.view(projectId, 'r.query_id = $2 AND v.is_default AND r.version = v.latest_version', queryId);
  }

  async revision(projectId: string, revisionId: string): Promise<SavedQueryResponse | undefined> {
    return this.view(projectId, 'r.id = $2', revisionId);
  }

  /** Every revision of the query's default variant, newest first; undefined when there is no such query. */
  async revisions(projectId: string, queryId: string): Promise<SavedQueryRevisionsResponse | undefined> {
    const r = await this.pool.query<RevisionRow>(
      `SELECT ${REVISION_COLUMNS}
         FROM saved_query_revisions r JOIN saved_query_variants v ON v.id = r.variant_id
        WHERE r.project_id = $1 AND r.query_id = $2 AND v.is_default
        ORDER BY r.version DESC`,
      [projectId, queryId],
    );
    // Every query has revision 1 from its creation, so no rows means no query (in this project).
    if (r.rows.length === 0) return undefined;
    return { count: r.rows.length, query_revisions: r.rows.map(revisionView) };
  }

  private async view(projectId: string, where: string, id: string): Promise<SavedQueryResponse | undefined> {
    const r = await this.pool.query<RevisionRow & {
      q_slug: string; q_name: string | null; q_description: string | null; q_created_at: Date; q_created_by_id: string | null;
      v_slug: string; v_created_at: Date;
    }>(
      `SELECT ${REVISION_COLUMNS}, q.slug AS q_slug, q.name AS q_name, q.description AS q_description, q.created_at AS q_created_at,
              q.created_by_id AS q_created_by_id, v.slug AS v_slug, v.created_at AS v_created_at
         FROM saved_query_revisions r
         JOIN saved_query_variants v ON v.id = r.variant_id
         JOIN saved_queries q ON q.id = r.query_id
        WHERE r.project_id = $1 AND ${where}`,
      [projectId, id],
    );
    const row = r.rows[0];
    if (!row) return undefined;
    return {
      query: { id: row.query_id, slug: row.q_slug, name: row.q_name, description: row.q_description, created_at: row.q_created_at.toISOString(), created_by_id: row.q_created_by_id },
      query_variant: { id: row.variant_id, slug: row.v_slug, query_id: row.query_id, created_at: row.v_created_at.toISOString() },
      query_revision: revisionView(row),
    };
  }
}
