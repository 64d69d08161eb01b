// The one reader of saved_queries, saved_query_variants and saved_query_revisions
// (0002-saved-queries.sql; written by projector-accounts only): the saved-query aggregate's state,
// what the commands read before they append, the views of GET /queries/…, and the revision a
// saved-query reference names on POST /spans/query and /traces/query.
import type { SavedQuery, SavedQueryEvent, SavedQueryState } from '@llm/account-model';
import type { SavedQueryResponse, SavedQueryRevisionsResponse } from '@llm/contracts';
import { asUuid, type Queryable } from './queryable.ts';

/** Which saved queries to load: by id (any project), and the project's by query slug and by revision slug. */
export interface SavedQuerySlice { projectId: string; queryIds?: string[]; slugs?: string[]; revisionSlugs?: string[] }

/** The state a saved-query event is decided on: the query it names (by id, and by slug on creation) and its revision slug. */
export function loadSavedQueryState(q: Queryable, e: SavedQueryEvent): Promise<SavedQueryState> {
  return loadSavedQueries(q, {
    projectId: e.projectId, queryIds: [e.payload.query_id], revisionSlugs: [e.payload.revision.slug],
    ...(e.type === 'accounts.query.created' ? { slugs: [e.payload.slug] } : {}),
  });
}

export async function loadSavedQueries(q: Queryable, slice: SavedQuerySlice): Promise<SavedQueryState> {
  const projectId = asUuid(slice.projectId);
  const ids = (slice.queryIds ?? []).map(asUuid).filter((id) => id !== null);
  const queries = await q.query<{ id: string; project_id: string; slug: string; variants: Array<{ id: string; slug: string; is_default: boolean; latest_version: number }> }>(
    `SELECT q.id::text AS id, q.project_id::text AS project_id, q.slug,
            COALESCE(json_agg(json_build_object('id', v.id, 'slug', v.slug, 'is_default', v.is_default, 'latest_version', v.latest_version)
                              ORDER BY v.created_at, v.id) FILTER (WHERE v.id IS NOT NULL), '[]') AS variants
       FROM saved_queries q LEFT JOIN saved_query_variants v ON v.query_id = q.id
      WHERE q.id = ANY($1::uuid[]) OR (q.project_id = $2::uuid AND q.slug = ANY($3::text[]))
      GROUP BY q.id ORDER BY q.created_at, q.id`,
    [ids, projectId, slice.slugs ?? []],
  );
  const revisions = await q.query<{ slug: string }>(
    'SELECT slug FROM saved_query_revisions WHERE project_id = $1::uuid AND slug = ANY($2::text[]) ORDER BY created_at, id',
    [projectId, slice.revisionSlugs ?? []],
  );
  return {
    queries: queries.rows.map((r) => ({
      id: r.id, projectId: r.project_id, slug: r.slug,
      variants: r.variants.map((v) => ({ id: v.id, slug: v.slug, isDefault: v.is_default, latestVersion: v.latest_version })),
    })),
    revisionSlugs: revisions.rows.map((r) => ({ projectId: slice.projectId, slug: r.slug })),
  };
}

/** Whether a query of the project has the slug (the command's generated slugs try again when it does). */
export async function querySlugTaken(q: Queryable, projectId: string, slug: string): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM saved_queries WHERE project_id = $1::uuid AND slug = $2', [asUuid(projectId), slug]);
  return (r.rowCount ?? 0) > 0;
}

export interface QueryVariantHead {
  queryId: string;
  variantId: string;
  /** The variant's latest revision version. */
  version: number;
}

/** The default variant of a query of the project, or undefined (missing, or another project's). */
export async function readDefaultVariant(q: Queryable, projectId: string, queryId: string): Promise<QueryVariantHead | undefined> {
  const r = await q.query<{ query_id: string; id: string; latest_version: number }>(
    'SELECT query_id::text AS query_id, id::text AS id, latest_version FROM saved_query_variants WHERE query_id = $1::uuid AND project_id = $2::uuid AND is_default',
    [asUuid(queryId), asUuid(projectId)],
  );
  const row = r.rows[0];
  return row ? { queryId: row.query_id, variantId: row.id, version: row.latest_version } : undefined;
}

// ── Views (GET /queries/…, and the command's answer after a write) ──

type RevisionView = SavedQueryResponse['query_revision'];

interface RevisionRow {
  id: string; slug: string; version: number; query_id: string; variant_id: string; filtering: unknown; windowing: unknown;
  focus: 'trace' | 'span' | null; format: 'agenta' | 'opentelemetry' | null; message: string | null; created_at: Date; created_by_id: string | null;
}

const REVISION_COLUMNS = `r.id::text AS id, r.slug, r.version, r.query_id::text AS query_id, r.variant_id::text AS variant_id,
  r.filtering, r.windowing, r.focus, r.format, r.message, r.created_at, r.created_by_id`;

function revisionView(row: RevisionRow): RevisionView {
  return {
    id: row.id, slug: row.slug, version: row.version, query_id: row.query_id, query_variant_id: row.variant_id,
    data: { ...(row.filtering !== null ? { filtering: row.filtering } : {}), ...(row.windowing !== null ? { windowing: row.windowing } : {}) },
    formatting: { ...(row.focus ? { focus: row.focus } : {}), ...(row.format ? { format: row.format } : {}) },
    message: row.message, created_at: row.created_at.toISOString(), created_by_id: row.created_by_id,
  };
}

/** A revision with its query and variant, chosen by `where` ($2 is `id`); another project's reads as missing. */
async function view(q: Queryable, projectId: string, where: string, id: string): Promise<SavedQueryResponse | undefined> {
  const p = asUuid(projectId);
  const key = asUuid(id);
  if (p === null || key === null) return undefined;
  const r = await q.query<RevisionRow & {
    q_slug: string; q_name: string | null; q_description: string | null; q_created_at: Date; q_created_by_id: string | null;
    v_slug: string; v_created_at: Date;
  }>(
    `SELECT ${REVISION_COLUMNS}, q.slug AS q_slug, q.name AS q_name, q.description AS q_description, q.created_at AS q_created_at,
            q.created_by_id AS q_created_by_id, v.slug AS v_slug, v.created_at AS v_created_at
       FROM saved_query_revisions r
       JOIN saved_query_variants v ON v.id = r.variant_id
       JOIN saved_queries q ON q.id = r.query_id
      WHERE r.project_id = $1 AND ${where}`,
    [p, key],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    query: { id: row.query_id, slug: row.q_slug, name: row.q_name, description: row.q_description, created_at: row.q_created_at.toISOString(), created_by_id: row.q_created_by_id },
    query_variant: { id: row.variant_id, slug: row.v_slug, query_id: row.query_id, created_at: row.v_created_at.toISOString() },
    query_revision: revisionView(row),
  };
}

/** A revision of the project with its query and variant. */
export const readSavedQueryRevision = (q: Queryable, projectId: string, revisionId: string): Promise<SavedQueryResponse | undefined> =>
  view(q, projectId, 'r.id = $2', revisionId);

/** A query of the project with its default variant and that variant's latest revision. */
export const readLatestSavedQuery = (q: Queryable, projectId: string, queryId: string): Promise<SavedQueryResponse | undefined> =>
  view(q, projectId, 'r.query_id = $2 AND v.is_default AND r.version = v.latest_version', queryId);

/** Every revision of the query's default variant, newest first; undefined when the project has no such query. */
export async function listSavedQueryRevisions(q: Queryable, projectId: string, queryId: string): Promise<SavedQueryRevisionsResponse | undefined> {
  const p = asUuid(projectId);
  const id = asUuid(queryId);
  if (p === null || id === null) return undefined;
  const r = await q.query<RevisionRow>(
    `SELECT ${REVISION_COLUMNS}
       FROM saved_query_revisions r JOIN saved_query_variants v ON v.id = r.variant_id
      WHERE r.project_id = $1 AND r.query_id = $2 AND v.is_default
      ORDER BY r.version DESC`,
    [p, id],
  );
  // Every query has revision 1 from its creation, so no rows means no query (in this project).
  if (r.rows.length === 0) return undefined;
  return { count: r.rows.length, query_revisions: r.rows.map(revisionView) };
}

// ── Saved-query references (POST /spans/query, /traces/query) ──

/** Constraints the revision must meet; every given field must hold. */
export interface SavedQueryLookup {
  queryId?: string;
  querySlug?: string;
  variantId?: string;
  variantSlug?: string;
  /** No variant named and the revision not named by id/slug: the query's default variant. */
  defaultVariant: boolean;
  revisionId?: string;
  revisionSlug?: string;
  /** Absent: the latest revision among those that match. */
  version?: number;
}

/** What resolving a reference needs of a stored revision. */
export interface StoredQueryRevision {
  filtering: unknown;
  windowing: unknown;
  focus: 'span' | 'trace' | null;
}

/** The revision of the project meeting every constraint of `lookup` (the latest when no version is named). */
export async function findSavedQueryRevision(q: Queryable, projectId: string, lookup: SavedQueryLookup): Promise<StoredQueryRevision | undefined> {
  const r = await q.query<StoredQueryRevision>(
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
