-- Versioned artifacts (reference evaluations §1.2): testsets and workflows (applications and
-- evaluators are workflows with a role flag) in one table set told apart by `family`, projected from
-- the accounts.artifact.* events; testcases are immutable content-addressed rows of a testset
-- (accounts.testcases.stored). Slugs are unique per project and family at each level.
CREATE TABLE artifacts (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  family text NOT NULL CHECK (family IN ('testset', 'workflow')),
  slug text NOT NULL,
  name text, description text, flags jsonb, tags jsonb, meta jsonb,
  created_at timestamptz NOT NULL, created_by_id text,
  updated_at timestamptz, updated_by_id text,
  deleted_at timestamptz, deleted_by_id text,
  UNIQUE (project_id, family, slug)
);
CREATE INDEX artifacts_list ON artifacts (project_id, family, id DESC);

CREATE TABLE artifact_variants (
  id uuid PRIMARY KEY,
  artifact_id uuid NOT NULL REFERENCES artifacts(id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  family text NOT NULL,
  slug text NOT NULL,
  name text, description text, flags jsonb, tags jsonb, meta jsonb,
  created_at timestamptz NOT NULL, created_by_id text,
  updated_at timestamptz, updated_by_id text,
  deleted_at timestamptz, deleted_by_id text,
  -- The version of the latest revision; -1 while the variant has none (a commit claims this + 1).
  latest_version int NOT NULL DEFAULT -1 CHECK (latest_version >= -1),
  UNIQUE (project_id, family, slug)
);
CREATE INDEX artifact_variants_by_artifact ON artifact_variants (artifact_id, created_at, id);

CREATE TABLE artifact_revisions (
  id uuid PRIMARY KEY,
  artifact_id uuid NOT NULL REFERENCES artifacts(id) ON DELETE CASCADE,
  variant_id uuid NOT NULL REFERENCES artifact_variants(id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  family text NOT NULL,
  slug text NOT NULL,
  version int NOT NULL CHECK (version >= 0),
  name text, description text, flags jsonb, tags jsonb, meta jsonb,
  data jsonb, message text,
  created_at timestamptz NOT NULL, created_by_id text,
  updated_at timestamptz, updated_by_id text,
  deleted_at timestamptz, deleted_by_id text,
  UNIQUE (variant_id, version),
  UNIQUE (project_id, family, slug)
);

CREATE TABLE artifact_testcases (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  -- No key to artifacts: a testset's rows are stored just before the testset itself.
  testset_id uuid NOT NULL,
  data jsonb NOT NULL,
  flags jsonb, tags jsonb, meta jsonb,
  created_at timestamptz NOT NULL, created_by_id text
);
CREATE INDEX artifact_testcases_by_testset ON artifact_testcases (testset_id, created_at, id);

-- Human evaluations now name either a legacy application/testset (0015, kept for logs that hold
-- accounts.application.* / accounts.testset.created) or an artifact: the rules check, not a key.
ALTER TABLE human_evaluations DROP CONSTRAINT IF EXISTS human_evaluations_app_id_fkey;
ALTER TABLE human_evaluations DROP CONSTRAINT IF EXISTS human_evaluations_testset_id_fkey;
