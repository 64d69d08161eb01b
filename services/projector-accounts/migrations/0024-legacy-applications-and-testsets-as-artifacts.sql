-- The first evaluation model's applications and testsets (0015) join the artifact model (issue 28,
-- one versioned-artifact model): their rows move into the artifact tables, which their events
-- (accounts.application.*, accounts.testset.created) are now projected into (artifact aggregate:
-- legacy-events.ts, whose rules these statements follow, so a replay builds the same rows):
-- - every slug becomes `<slug>_<id in hex>` (a revision without one: the id in hex);
-- - an application is a workflow flagged `is_application` over the flags it had; its variants and
--   numbered revisions are carried (the current number is the latest version);
-- - a testset gets its variant (`variant_id`), a placeholder revision 0 (id md5(revision_id:v0))
--   and revision 1 (`revision_id`) naming its rows in order; rows keep their ids.
-- human_evaluations already name artifacts or these ids (0021 dropped their keys), so nothing
-- else changes.
INSERT INTO artifacts (id, project_id, family, slug, name, description, flags, tags, meta, created_at, created_by_id)
SELECT a.id, a.project_id, 'workflow', a.slug || '_' || replace(a.id::text, '-', ''), a.name, a.description,
       CASE WHEN jsonb_typeof(a.flags) = 'object' THEN a.flags ELSE '{}'::jsonb END || '{"is_application": true}'::jsonb,
       a.tags, a.meta, a.created_at, a.created_by_id
  FROM applications a;

INSERT INTO artifact_variants (id, artifact_id, project_id, family, slug, name, flags, tags, latest_version, created_at, created_by_id)
SELECT v.id, v.application_id, v.project_id, 'workflow', v.slug || '_' || replace(v.id::text, '-', ''), NULLIF(v.name, ''), v.flags, v.tags,
       coalesce(v.revision, -1), v.created_at, v.created_by_id
  FROM application_variants v;

INSERT INTO artifact_revisions (id, artifact_id, variant_id, project_id, family, slug, version, data, message, created_at, created_by_id)
SELECT r.id, r.application_id, r.variant_id, r.project_id, 'workflow',
       CASE WHEN coalesce(r.slug, '') = '' THEN replace(r.id::text, '-', '') ELSE r.slug || '_' || replace(r.id::text, '-', '') END,
       r.version, r.data, r.message, r.created_at, r.created_by_id
  FROM application_revisions r;

INSERT INTO artifacts (id, project_id, family, slug, name, description, tags, meta, created_at, created_by_id)
SELECT t.id, t.project_id, 'testset', t.slug || '_' || replace(t.id::text, '-', ''), t.name, t.description, t.tags, t.meta, t.created_at, t.created_by_id
  FROM testsets t;

INSERT INTO artifact_variants (id, artifact_id, project_id, family, slug, name, latest_version, created_at, created_by_id)
SELECT t.variant_id, t.id, t.project_id, 'testset', replace(t.variant_id::text, '-', ''), t.name, 1, t.created_at, t.created_by_id
  FROM testsets t;

INSERT INTO artifact_revisions (id, artifact_id, variant_id, project_id, family, slug, version, data, created_at, created_by_id)
SELECT x.id, t.id, t.variant_id, t.project_id, 'testset', replace(x.id::text, '-', ''), x.version, x.data, t.created_at, t.created_by_id
  FROM testsets t
  CROSS JOIN LATERAL (
    SELECT md5(t.revision_id::text || ':v0')::uuid AS id, 0 AS version, NULL::jsonb AS data
    UNION ALL
    SELECT t.revision_id, 1, jsonb_build_object('testcase_ids',
           coalesce((SELECT jsonb_agg(c.id::text ORDER BY c.position) FROM testcases c WHERE c.testset_id = t.id), '[]'::jsonb))
  ) x;

INSERT INTO artifact_testcases (id, project_id, testset_id, data, created_at, created_by_id)
SELECT c.id, t.project_id, t.id, c.data, t.created_at, t.created_by_id
  FROM testcases c JOIN testsets t ON t.id = c.testset_id;

DROP TABLE testcases;
DROP TABLE testsets;
DROP TABLE application_revisions;
DROP TABLE application_variants;
DROP TABLE applications;
