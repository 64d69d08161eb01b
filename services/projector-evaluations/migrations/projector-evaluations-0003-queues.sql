-- Queues of evaluation runs (reference evaluations §2.8, §3.5): which of a run's scenarios a person
-- annotates, optionally split between users by lanes. At most one default queue per run, archived
-- ones included (the run rules decide it on the run's stream; the index holds it). Archived =
-- deleted_at set (only the default-queue reconciliation archives); a hard delete removes the row.
CREATE TABLE evaluation_queues (
  id uuid PRIMARY KEY,
  run_id uuid NOT NULL REFERENCES evaluation_runs(id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  name text,
  description text,
  status text NOT NULL,
  flags jsonb NOT NULL DEFAULT '{}',
  tags jsonb,
  meta jsonb,
  data jsonb,
  created_at timestamptz NOT NULL,
  created_by_id text,
  updated_at timestamptz,
  updated_by_id text,
  deleted_at timestamptz,
  deleted_by_id text
);
CREATE INDEX evaluation_queues_by_project ON evaluation_queues (project_id, id DESC);
CREATE INDEX evaluation_queues_by_run ON evaluation_queues (run_id);
CREATE UNIQUE INDEX evaluation_queues_one_default ON evaluation_queues (run_id) WHERE (flags->>'is_default')::boolean;
