-- Applications, variants and numbered revisions, testsets with ordered rows, and human evaluations
-- with their variant links and scenarios (reference compat §4, accounts §12), projected from the
-- accounts.application.*, accounts.testset.* and accounts.human_evaluation.* events.
CREATE TABLE applications (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  slug text NOT NULL,
  name text,
  description text,
  tags jsonb,
  meta jsonb,
  flags jsonb,
  data jsonb,
  created_at timestamptz NOT NULL,
  created_by_id text,
  UNIQUE (project_id, slug)
);

CREATE TABLE application_variants (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  slug text NOT NULL,
  name text,
  flags jsonb,
  tags jsonb,
  archived boolean NOT NULL DEFAULT false,
  -- The current revision number; NULL before the first commit.
  revision int,
  created_at timestamptz NOT NULL,
  created_by_id text,
  UNIQUE (application_id, slug)
);

CREATE TABLE application_revisions (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  variant_id uuid NOT NULL REFERENCES application_variants(id) ON DELETE CASCADE,
  slug text,
  version int NOT NULL,
  message text,
  data jsonb,
  created_at timestamptz NOT NULL,
  created_by_id text,
  UNIQUE (variant_id, version)
);

CREATE TABLE testsets (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  slug text NOT NULL,
  name text,
  description text,
  tags jsonb,
  meta jsonb,
  variant_id uuid NOT NULL,
  revision_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  created_by_id text,
  UNIQUE (project_id, slug)
);

-- Rows in order (`position`); duplicates kept.
CREATE TABLE testcases (
  id uuid PRIMARY KEY,
  testset_id uuid NOT NULL REFERENCES testsets(id) ON DELETE CASCADE,
  position int NOT NULL,
  data jsonb NOT NULL,
  UNIQUE (testset_id, position)
);

CREATE TABLE human_evaluations (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  app_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  evaluation_type text NOT NULL,
  status text NOT NULL,
  testset_id uuid REFERENCES testsets(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz,
  created_by_id text
);
CREATE INDEX human_evaluations_app ON human_evaluations (project_id, app_id);

-- Each variant of an evaluation, in the order asked, linked to the revision current at creation.
-- No foreign key on the revision: a link whose revision is gone reads as " None" (§12).
CREATE TABLE human_evaluation_variants (
  evaluation_id uuid NOT NULL REFERENCES human_evaluations(id) ON DELETE CASCADE,
  position int NOT NULL,
  variant_id uuid NOT NULL,
  revision_id uuid NOT NULL,
  PRIMARY KEY (evaluation_id, position)
);

CREATE TABLE human_evaluation_scenarios (
  id uuid PRIMARY KEY,
  evaluation_id uuid NOT NULL REFERENCES human_evaluations(id) ON DELETE CASCADE,
  position int NOT NULL,
  inputs jsonb NOT NULL,
  -- '' for the kind the evaluation type uses (vote for A/B, score for single model), NULL otherwise.
  vote text,
  score text,
  correct_answer text NOT NULL DEFAULT '',
  UNIQUE (evaluation_id, position)
);
