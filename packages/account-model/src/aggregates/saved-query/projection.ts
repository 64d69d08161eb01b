// saved_queries, saved_query_variants and saved_query_revisions from the saved-query aggregate's
// facts (rules: rules.ts; tables: 0002 and 0013). Events of the first
// model are projected the way 0013 converted its rows, so a replay rebuilds the same tables.
import { eventTime } from '../../account-event.ts';
import { legacyVariantSlug, type SavedQueryEvent, type SavedQueryState } from './rules.ts';
import type { QueryHeader, QueryRevisionInfo } from '@llm/events';
import type { SqlStatement } from '../../statement.ts';

/** JSON text → jsonb ('' = NULL). */
const json = (n: number): string => `NULLIF($${n},'')::jsonb`;
const text = (v: string): string | null => (v === '' ? null : v);
const headerValues = (h: QueryHeader | undefined): unknown[] =>
  [text(h?.name ?? ''), text(h?.description ?? ''), h?.tags_json ?? '', h?.meta_json ?? '', h?.flags_json ?? ''];

export function projectSavedQuery(e: SavedQueryEvent, _s: SavedQueryState): SqlStatement[] {
  const at = eventTime(e);
  const actor = e.actorId || null;
  switch (e.type) {
    case 'accounts.query.created': {
      const c = e.payload;
      return [
        {
          text: 'INSERT INTO saved_queries (id, project_id, slug, name, description, created_at, created_by_id) VALUES ($1,$2,$3,$4,$5,$6,$7)',
          values: [c.query_id, e.projectId, c.slug, text(c.name), text(c.description), at, actor],
        },
        {
          text: 'INSERT INTO saved_query_variants (id, query_id, project_id, slug, is_default, latest_version, created_at) VALUES ($1,$2,$3,$4,true,0,$5)',
          values: [c.variant_id, c.query_id, e.projectId, legacyVariantSlug(c.variant_id), at],
        },
        legacyRevision(c.revision, c.query_id, c.variant_id, e.projectId, at, actor),
      ];
    }
    case 'accounts.query.revision.committed': {
      const p = e.payload;
      const version = p.revision.version - 1;
      return [
        legacyRevision(p.revision, p.query_id, p.variant_id, e.projectId, at, actor),
        { text: 'UPDATE saved_query_variants SET latest_version = $2 WHERE id = $1 AND latest_version = $3', values: [p.variant_id, version, version - 1] },
      ];
    }
    case 'accounts.query.artifact.created': {
      const c = e.payload;
      return [{
        text: `INSERT INTO saved_queries (id, project_id, slug, name, description, tags, meta, flags, folder_id, created_at, created_by_id)
               VALUES ($1,$2,$3,$4,$5,${json(6)},${json(7)},${json(8)},NULLIF($9,'')::uuid,$10,$11)`,
        values: [c.query_id, e.projectId, c.slug, ...headerValues(c.header), c.folder_id, at, actor],
      }];
    }
    case 'accounts.query.artifact.edited': {
      const c = e.payload;
      return [{
        text: `UPDATE saved_queries SET name = $2, description = $3, tags = ${json(4)}, meta = ${json(5)}, flags = ${json(6)},
                 folder_id = NULLIF($7,'')::uuid, updated_at = $8, updated_by_id = $9 WHERE id = $1`,
        values: [c.query_id, ...headerValues(c.header), c.folder_id, at, actor],
      }];
    }
    case 'accounts.query.variant.created': {
      const c = e.payload;
      const copies = c.revisions ?? [];
      return [{
        // The artifact's first variant is its default one.
        text: `INSERT INTO saved_query_variants (id, query_id, project_id, slug, name, description, tags, meta, flags, is_default, latest_version, created_at, created_by_id)
               VALUES ($1,$2,$3,$4,$5,$6,${json(7)},${json(8)},${json(9)},
                       NOT EXISTS (SELECT 1 FROM saved_query_variants WHERE query_id = $2::uuid), $12, $10, $11)`,
        values: [c.variant_id, c.query_id, e.projectId, c.slug, ...headerValues(c.header), at, actor, copies.length - 1],
      }, ...copies.map((r, version): SqlStatement => ({
        // A fork's copies, numbered from 0 in the order the event lists them.
        text: `INSERT INTO saved_query_revisions (id, query_id, variant_id, project_id, slug, version, name, description, tags, meta, flags, data, message, created_at, created_by_id)
               VALUES ($1,$2,$3,$4,$5,$6,$7,$8,${json(9)},${json(10)},${json(11)},${json(12)},$13,$14,$15)`,
        values: [r.revision_id, c.query_id, c.variant_id, e.projectId, r.slug, version, ...headerValues(r.header), r.data_json, text(r.message), at, actor],
      }))];
    }
    case 'accounts.query.variant.edited': {
      const c = e.payload;
      return [{
        text: `UPDATE saved_query_variants SET name = $2, description = $3, tags = ${json(4)}, meta = ${json(5)}, flags = ${json(6)},
                 updated_at = $7, updated_by_id = $8 WHERE id = $1`,
        values: [c.variant_id, ...headerValues(c.header), at, actor],
      }];
    }
    case 'accounts.query.revision.edited': {
      // The header only: data, slug, version and message are the commit's and never change.
      const c = e.payload;
      return [{
        text: `UPDATE saved_query_revisions SET name = $2, description = $3, tags = ${json(4)}, meta = ${json(5)}, flags = ${json(6)},
                 updated_at = $7, updated_by_id = $8 WHERE id = $1`,
        values: [c.revision_id, ...headerValues(c.header), at, actor],
      }];
    }
    case 'accounts.query.revision.added': {
      const p = e.payload;
      return [
        {
          text: `INSERT INTO saved_query_revisions (id, query_id, variant_id, project_id, slug, version, name, description, tags, meta, flags, data, message, created_at, created_by_id)
                 VALUES ($1,$2,$3,$4,$5,$6,$7,$8,${json(9)},${json(10)},${json(11)},${json(12)},$13,$14,$15)`,
          values: [p.revision_id, p.query_id, p.variant_id, e.projectId, p.slug, p.version, ...headerValues(p.header), p.data_json, text(p.message), at, actor],
        },
        // Accepted only when the revision follows the variant's version: the version in the WHERE
        // is a backstop, like the table's UNIQUE (variant_id, version).
        { text: 'UPDATE saved_query_variants SET latest_version = $2 WHERE id = $1 AND latest_version = $3', values: [p.variant_id, p.version, p.version - 1] },
      ];
    }
    case 'accounts.query.archive.set': {
      const p = e.payload;
      const values = [p.target_id, p.archived ? at : null, p.archived ? actor : null];
      const set = 'deleted_at = $2::timestamptz, deleted_by_id = $3::text';
      if (p.target === 'query') return [{ text: `UPDATE saved_queries SET ${set} WHERE id = $1`, values }];
      if (p.target === 'revision') return [{ text: `UPDATE saved_query_revisions SET ${set} WHERE id = $1`, values }];
      // A variant's archival covers its revisions.
      return [
        { text: `UPDATE saved_query_variants SET ${set} WHERE id = $1`, values },
        { text: `UPDATE saved_query_revisions SET ${set} WHERE variant_id = $1`, values },
      ];
    }
  }
}

/** A revision of the first model, renumbered from 0, its content folded into `data` exactly as 0013 does. */
function legacyRevision(r: QueryRevisionInfo, queryId: string, variantId: string, projectId: string, at: string, actor: string | null): SqlStatement {
  return {
    text: `INSERT INTO saved_query_revisions
             (id, query_id, variant_id, project_id, slug, version, filtering, windowing, focus, format, message, created_at, created_by_id, data)
           VALUES ($1,$2,$3,$4,$5,$6,NULLIF($7,'')::jsonb,NULLIF($8,'')::jsonb,$9,$10,$11,$12,$13,
             NULLIF(jsonb_strip_nulls(jsonb_build_object(
               'filtering', NULLIF($7,'')::jsonb, 'windowing', NULLIF($8,'')::jsonb,
               'formatting', NULLIF(jsonb_strip_nulls(jsonb_build_object('focus', $9::text, 'format', $10::text)), '{}'::jsonb))), '{}'::jsonb))`,
    values: [
      r.id, queryId, variantId, projectId, r.slug, r.version - 1, r.filtering_json, r.windowing_json,
      r.focus || null, r.format || null, r.message || null, at, actor,
    ],
  };
}
