// Pure projection of the saved-query events (accounts.query.*) into SQL statements. Whether an event
// is a fact depends on the read model (slug taken, the variant's current version), read first by the
// consumer; all of a project's saved-query events share one partition, so these facts are the same
// on every replay.
import { checkExpectedVersion, type DecodedEvent, type QueryRevisionInfo } from '@llm/events';
import type { Projection, SqlStatement } from './projection.ts';

export type SavedQueryEvent = DecodedEvent<'accounts.query.created'> | DecodedEvent<'accounts.query.revision.committed'>;

export interface SavedQueryFactsNeeded {
  projectId: string;
  queryId: string;
  /** The new query's slug (creation only). */
  slug?: string;
  /** The variant a revision is committed to. */
  variantId?: string;
  revisionSlug: string;
}

export interface SavedQueryFacts {
  /** A query with this id exists, in any project. */
  queryExists: boolean;
  /** Another query of the project already has the slug. */
  slugTaken: boolean;
  /** Another revision of the project already has the revision slug. */
  revisionSlugTaken: boolean;
  /** latest_version of the variant when it belongs to this query of this project. */
  variantVersion: number | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function savedQueryFactsNeeded(e: SavedQueryEvent): SavedQueryFactsNeeded {
  const p = e.payload;
  const base = { projectId: e.projectId, queryId: p.query_id, revisionSlug: p.revision.slug };
  return e.type === 'accounts.query.created'
    ? { ...base, slug: e.payload.slug }
    : { ...base, variantId: p.variant_id };
}

const rejected = (reason: string): Projection => ({ status: 'rejected', reason });

export function projectSavedQueryEvent(e: SavedQueryEvent, facts: SavedQueryFacts): Projection {
  const at = new Date(e.timeUs / 1000).toISOString();
  const actor = e.actorId || null;
  const p = e.payload;
  if (!UUID.test(e.projectId)) return rejected(`${e.type} needs the project id in its envelope`);
  if (!UUID.test(p.query_id) || !UUID.test(p.variant_id) || !UUID.test(p.revision.id)) return rejected(`${e.type} carries an id that is not a UUID`);

  if (e.type === 'accounts.query.created') {
    const c = e.payload;
    if (facts.queryExists) return rejected(`Query '${c.query_id}' already exists.`);
    if (facts.slugTaken) return rejected(`Query with slug '${c.slug}' already exists in this project.`);
    if (facts.revisionSlugTaken) return rejected(`Query revision with slug '${c.revision.slug}' already exists in this project.`);
    if (c.revision.version !== 1) return rejected(`the first revision of a query has version 1, not ${c.revision.version}`);
    return {
      status: 'applied',
      statements: [
        {
          text: 'INSERT INTO saved_queries (id, project_id, slug, name, description, created_at, created_by_id) VALUES ($1,$2,$3,$4,$5,$6,$7)',
          values: [c.query_id, e.projectId, c.slug, c.name || null, c.description || null, at, actor],
        },
        {
          text: 'INSERT INTO saved_query_variants (id, query_id, project_id, slug, is_default, latest_version, created_at) VALUES ($1,$2,$3,$4,true,1,$5)',
          values: [c.variant_id, c.query_id, e.projectId, c.variant_slug, at],
        },
        insertRevision(c.revision, c.query_id, c.variant_id, e.projectId, at, actor),
      ],
    };
  }

  const current = facts.variantVersion;
  if (current === undefined) return rejected('Query not found.');
  // The command read version `current` (or the client said which one it saw); anything else
  // committed in between makes this commit stale.
  const check = checkExpectedVersion(e.expectedVersion, current);
  if (!check.ok) return rejected(check.reason);
  if (p.revision.version !== current + 1) return rejected(`revision version ${p.revision.version} does not follow the current version ${current}`);
  if (facts.revisionSlugTaken) return rejected(`Query revision with slug '${p.revision.slug}' already exists in this project.`);
  return {
    status: 'applied',
    statements: [
      insertRevision(p.revision, p.query_id, p.variant_id, e.projectId, at, actor),
      { text: 'UPDATE saved_query_variants SET latest_version = $2 WHERE id = $1 AND latest_version = $3', values: [p.variant_id, p.revision.version, current] },
    ],
  };
}

function insertRevision(r: QueryRevisionInfo, queryId: string, variantId: string, projectId: string, at: string, actor: string | null): SqlStatement {
  return {
    text: `INSERT INTO saved_query_revisions
             (id, query_id, variant_id, project_id, slug, version, filtering, windowing, focus, format, message, created_at, created_by_id)
           VALUES ($1,$2,$3,$4,$5,$6,NULLIF($7,'')::jsonb,NULLIF($8,'')::jsonb,$9,$10,$11,$12,$13)`,
    values: [
      r.id, queryId, variantId, projectId, r.slug, r.version, r.filtering_json, r.windowing_json,
      r.focus || null, r.format || null, r.message || null, at, actor,
    ],
  };
}
