-- Evaluation runs with their scenarios, results (cells) and metrics (reference evaluations §2.3,
-- §3.1), projected from evaluations.v1 by projector-evaluations alone. No foreign key to the accounts
-- tables: another projector owns those, and a replay of this topic may run ahead of theirs. A run
-- owns its rows (ON DELETE CASCADE); a deleted project's runs are purged by this projector.
CREATE TABLE evaluation_runs (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  name text,
  description text,
  status text NOT NULL,
  flags jsonb NOT NULL DEFAULT '{}',
  tags jsonb,
  meta jsonb,
  data jsonb,
  -- Cell writes and deletes so far: a metrics refresh computed on fewer never overwrites a newer one.
  results_seq bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  created_by_id text,
  updated_at timestamptz,
  updated_by_id text
);
CREATE INDEX evaluation_runs_by_project ON evaluation_runs (project_id, id DESC);

CREATE TABLE evaluation_scenarios (
  id uuid PRIMARY KEY,
  run_id uuid NOT NULL REFERENCES evaluation_runs(id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  status text NOT NULL,
  "timestamp" timestamptz,
  "interval" bigint,
  flags jsonb,
  tags jsonb,
  meta jsonb,
  created_at timestamptz NOT NULL,
  created_by_id text,
  updated_at timestamptz,
  updated_by_id text
);
CREATE INDEX evaluation_scenarios_by_run ON evaluation_scenarios (run_id, id);
CREATE INDEX evaluation_scenarios_by_project ON evaluation_scenarios (project_id, id);

-- One cell per (run, scenario, step, repeat): a write of the same cell replaces it and keeps its id.
CREATE TABLE evaluation_results (
  id uuid PRIMARY KEY,
  run_id uuid NOT NULL REFERENCES evaluation_runs(id) ON DELETE CASCADE,
  scenario_id uuid NOT NULL REFERENCES evaluation_scenarios(id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  step_key text NOT NULL,
  repeat_idx integer NOT NULL,
  status text NOT NULL,
  trace_id uuid,
  hash_id uuid,
  testcase_id uuid,
  error jsonb,
  "timestamp" timestamptz,
  "interval" bigint,
  flags jsonb,
  tags jsonb,
  meta jsonb,
  created_at timestamptz NOT NULL,
  created_by_id text,
  updated_at timestamptz,
  updated_by_id text,
  UNIQUE (run_id, scenario_id, step_key, repeat_idx)
);
CREATE INDEX evaluation_results_by_step ON evaluation_results (run_id, step_key);
CREATE INDEX evaluation_results_by_project ON evaluation_results (project_id, id);

-- One row per key: global (no scenario, no timestamp), variational (scenario) or temporal (timestamp).
CREATE TABLE evaluation_metrics (
  id uuid PRIMARY KEY,
  run_id uuid NOT NULL REFERENCES evaluation_runs(id) ON DELETE CASCADE,
  scenario_id uuid REFERENCES evaluation_scenarios(id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  "timestamp" timestamptz,
  "interval" bigint,
  status text NOT NULL,
  data jsonb,
  flags jsonb,
  tags jsonb,
  meta jsonb,
  -- A refreshed row: the run's results_seq its values were computed on (NULL = written by a client).
  results_seq bigint,
  created_at timestamptz NOT NULL,
  created_by_id text,
  updated_at timestamptz,
  updated_by_id text,
  CHECK (scenario_id IS NULL OR "timestamp" IS NULL)
);
CREATE UNIQUE INDEX evaluation_metrics_key ON evaluation_metrics
  (run_id, (coalesce(scenario_id, '00000000-0000-0000-0000-000000000000'::uuid)), (coalesce("timestamp", 'epoch'::timestamptz)));
CREATE INDEX evaluation_metrics_by_project ON evaluation_metrics (project_id, id DESC);

-- Every event of evaluations.v1 once, with its verdict: the command waits here for its write's
-- outcome (read-your-writes), and a re-delivered event is skipped.
CREATE TABLE evaluation_events (
  event_id uuid PRIMARY KEY,
  type text NOT NULL,
  run_id text NOT NULL,
  project_id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  request_id text,
  topic text NOT NULL,
  partition integer NOT NULL,
  "offset" bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('applied', 'rejected')),
  rejection text,
  rejection_code text,
  rejection_details jsonb
);
CREATE INDEX evaluation_events_by_run ON evaluation_events (run_id);
