-- Saved queries join the artifact model as the `query` family (issue 28, one versioned-artifact
-- model): their rows move from saved_queries, saved_query_variants and saved_query_revisions (0002,
-- 0013) into the artifact tables, which the accounts.query.* events are now projected into
-- (artifact aggregate: query-events.ts). Rows are carried as they are; the four first-model
-- columns of revisions (filtering, windowing, focus, format) are not: 0013 folded them into `data`.
-- Queries of projects that no longer exist are not carried (the artifact tables follow their
-- project; a replay deletes them with it too).
ALTER TABLE artifacts DROP CONSTRAINT IF EXISTS artifacts_family_check;
ALTER TABLE artifacts ADD CONSTRAINT artifacts_family_check CHECK (family IN ('testset', 'workflow', 'environment', 'query'));
-- Only queries are filed in folders.
ALTER TABLE artifacts ADD COLUMN folder_id uuid;

INSERT INTO artifacts (id, project_id, family, slug, name, description, flags, tags, meta, folder_id,
                       created_at, created_by_id, updated_at, updated_by_id, deleted_at, deleted_by_id)
SELECT q.id, q.project_id, 'query', q.slug, q.name, q.description, q.flags, q.tags, q.meta, q.folder_id,
       q.created_at, q.created_by_id, q.updated_at, q.updated_by_id, q.deleted_at, q.deleted_by_id
  FROM saved_queries q
 WHERE EXISTS (SELECT 1 FROM projects p WHERE p.id = q.project_id);

-- A first-model variant (its slug is its id in hex) was stored without its author: it is the
-- query's (one event made both).
INSERT INTO artifact_variants (id, artifact_id, project_id, family, slug, name, description, flags, tags, meta, latest_version,
                               created_at, created_by_id, updated_at, updated_by_id, deleted_at, deleted_by_id)
SELECT v.id, v.query_id, v.project_id, 'query', v.slug, v.name, v.description, v.flags, v.tags, v.meta, v.latest_version,
       v.created_at, CASE WHEN v.created_by_id IS NULL AND v.slug = replace(v.id::text, '-', '') THEN q.created_by_id ELSE v.created_by_id END,
       v.updated_at, v.updated_by_id, v.deleted_at, v.deleted_by_id
  FROM saved_query_variants v JOIN artifacts q ON q.id = v.query_id AND q.family = 'query';

INSERT INTO artifact_revisions (id, artifact_id, variant_id, project_id, family, slug, version, name, description, flags, tags, meta, data, message,
                                created_at, created_by_id, updated_at, updated_by_id, deleted_at, deleted_by_id)
SELECT r.id, r.query_id, r.variant_id, r.project_id, 'query', r.slug, r.version, r.name, r.description, r.flags, r.tags, r.meta, r.data, r.message,
       r.created_at, r.created_by_id, r.updated_at, r.updated_by_id, r.deleted_at, r.deleted_by_id
  FROM saved_query_revisions r JOIN artifact_variants v ON v.id = r.variant_id AND v.family = 'query';

DROP TABLE saved_query_revisions;
DROP TABLE saved_query_variants;
DROP TABLE saved_queries;
