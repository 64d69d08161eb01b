// saved_queries, saved_query_variants and saved_query_revisions from the saved-query aggregate's
// facts (rules: @llm/account-model saved-query.ts).
import { eventTime, type SavedQueryEvent, type SavedQueryState } from '@llm/account-model';
import type { QueryRevisionInfo } from '@llm/events';
import type { SqlStatement } from './statement.ts';

export function projectSavedQuery(e: SavedQueryEvent, _s: SavedQueryState): SqlStatement[] {
  const at = eventTime(e);
  const actor = e.actorId || null;
  switch (e.type) {
    case 'accounts.query.created': {
      const c = e.payload;
      return [
        {
          text: 'INSERT INTO saved_queries (id, project_id, slug, name, description, created_at, created_by_id) VALUES ($1,$2,$3,$4,$5,$6,$7)',
          values: [c.query_id, e.projectId, c.slug, c.name || null, c.description || null, at, actor],
        },
        {
          text: 'INSERT INTO saved_query_variants (id, query_id, project_id, slug, is_default, latest_version, created_at) VALUES ($1,$2,$3,$4,true,$5,$6)',
          values: [c.variant_id, c.query_id, e.projectId, c.variant_slug, c.revision.version, at],
        },
        insertRevision(c.revision, c.query_id, c.variant_id, e.projectId, at, actor),
      ];
    }
    case 'accounts.query.revision.committed': {
      const p = e.payload;
      // Accepted only when the revision follows the variant's version: the version in the WHERE is
      // a backstop, like the table's UNIQUE (variant_id, version).
      const current = p.revision.version - 1;
      return [
        insertRevision(p.revision, p.query_id, p.variant_id, e.projectId, at, actor),
        { text: 'UPDATE saved_query_variants SET latest_version = $2 WHERE id = $1 AND latest_version = $3', values: [p.variant_id, p.revision.version, current] },
      ];
    }
  }
}

function insertRevision(r: QueryRevisionInfo, queryId: string, variantId: string, projectId: string, at: string, actor: string | null): SqlStatement {
  return {
    // The filtering and windowing travel as JSON text ('' = none) and become jsonb here.
    text: `INSERT INTO saved_query_revisions
             (id, query_id, variant_id, project_id, slug, version, filtering, windowing, focus, format, message, created_at, created_by_id)
           VALUES ($1,$2,$3,$4,$5,$6,NULLIF($7,'')::jsonb,NULLIF($8,'')::jsonb,$9,$10,$11,$12,$13)`,
    values: [
      r.id, queryId, variantId, projectId, r.slug, r.version, r.filtering_json, r.windowing_json,
      r.focus || null, r.format || null, r.message || null, at, actor,
    ],
  };
}
