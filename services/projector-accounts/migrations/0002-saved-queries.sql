-- Saved queries (written only by projector-accounts from accounts.query.* events).
--
-- No foreign key to projects: a project's saved-query events and its account events travel on
-- different partitions, so on a replay a query may be projected before (or after the deletion of)
-- its project. Depending on that order would make a replay rebuild a different state. Rows of a
-- deleted project stay behind unreachable: no API key can address that project any more.
CREATE TABLE saved_queries (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  slug text NOT NULL,
  name text,
  description text,
  created_at timestamptz NOT NULL,
  created_by_id text,
  UNIQUE (project_id, slug)
);

CREATE TABLE saved_query_variants (
  id uuid PRIMARY KEY,
  query_id uuid NOT NULL REFERENCES saved_queries(id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  slug text NOT NULL,
  is_default boolean NOT NULL,
  -- The variant's aggregate version: the number of its latest revision (the expected_version check).
  latest_version int NOT NULL CHECK (latest_version >= 1),
  created_at timestamptz NOT NULL,
  UNIQUE (query_id, slug)
);
CREATE UNIQUE INDEX saved_query_variants_default ON saved_query_variants (query_id) WHERE is_default;

CREATE TABLE saved_query_revisions (
  id uuid PRIMARY KEY,
  query_id uuid NOT NULL REFERENCES saved_queries(id) ON DELETE CASCADE,
  variant_id uuid NOT NULL REFERENCES saved_query_variants(id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  slug text NOT NULL,
  version int NOT NULL CHECK (version >= 1),
  filtering jsonb,
  windowing jsonb,
  focus text CHECK (focus IN ('trace', 'span')),
  format text CHECK (format IN ('agenta', 'opentelemetry')),
  message text,
  created_at timestamptz NOT NULL,
  created_by_id text,
  -- A backstop for the projector's version check: two revisions never share a version.
  UNIQUE (variant_id, version),
  UNIQUE (project_id, slug)
);
CREATE INDEX saved_query_revisions_query ON saved_query_revisions (query_id, version);
