-- Saved queries become the reference's git-style model (compat §1): artifacts with headers and
-- archival, variants with their own project-unique slugs, revisions numbered from 0 with a header
-- and one `data` object ({formatting?, filtering?, windowing?}). Written only by projector-accounts.
--
-- Rows of the first model are converted the way the projection converts their events on a replay
-- (saved-query aggregate: legacyVariantSlug), so a replay rebuilds exactly these rows: variants
-- that were all called "default" take their id in hex as slug, versions 1, 2, … become 0, 1, … .
ALTER TABLE saved_queries
  ADD COLUMN tags jsonb,
  ADD COLUMN meta jsonb,
  ADD COLUMN flags jsonb,
  ADD COLUMN folder_id uuid,
  ADD COLUMN updated_at timestamptz,
  ADD COLUMN updated_by_id text,
  ADD COLUMN deleted_at timestamptz,
  ADD COLUMN deleted_by_id text;

ALTER TABLE saved_query_variants
  ADD COLUMN name text,
  ADD COLUMN description text,
  ADD COLUMN tags jsonb,
  ADD COLUMN meta jsonb,
  ADD COLUMN flags jsonb,
  ADD COLUMN created_by_id text,
  ADD COLUMN updated_at timestamptz,
  ADD COLUMN updated_by_id text,
  ADD COLUMN deleted_at timestamptz,
  ADD COLUMN deleted_by_id text,
  DROP CONSTRAINT saved_query_variants_latest_version_check,
  DROP CONSTRAINT saved_query_variants_query_id_slug_key;
UPDATE saved_query_variants SET latest_version = latest_version - 1, slug = replace(id::text, '-', '');
-- -1: a variant without revisions yet.
ALTER TABLE saved_query_variants
  ADD CONSTRAINT saved_query_variants_latest_version_check CHECK (latest_version >= -1),
  ADD CONSTRAINT saved_query_variants_project_slug_key UNIQUE (project_id, slug);

ALTER TABLE saved_query_revisions
  ADD COLUMN name text,
  ADD COLUMN description text,
  ADD COLUMN tags jsonb,
  ADD COLUMN meta jsonb,
  ADD COLUMN flags jsonb,
  ADD COLUMN data jsonb,
  ADD COLUMN updated_at timestamptz,
  ADD COLUMN updated_by_id text,
  ADD COLUMN deleted_at timestamptz,
  ADD COLUMN deleted_by_id text,
  DROP CONSTRAINT saved_query_revisions_version_check,
  DROP CONSTRAINT saved_query_revisions_variant_id_version_key;
-- `data` becomes the revision's content; the four columns it replaces stay for rows of the first
-- model only (nothing reads them any more).
UPDATE saved_query_revisions SET version = version - 1,
  data = NULLIF(jsonb_strip_nulls(jsonb_build_object(
    'filtering', filtering, 'windowing', windowing,
    'formatting', NULLIF(jsonb_strip_nulls(jsonb_build_object('focus', focus, 'format', format)), '{}'::jsonb))), '{}'::jsonb);
ALTER TABLE saved_query_revisions
  ADD CONSTRAINT saved_query_revisions_version_check CHECK (version >= 0),
  ADD CONSTRAINT saved_query_revisions_variant_id_version_key UNIQUE (variant_id, version);
CREATE INDEX saved_query_revisions_variant ON saved_query_revisions (variant_id, version);
