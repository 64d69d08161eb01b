-- Executions the server owes a run (reference evaluations §3.7, §4.2): one row per
-- `evaluations.run.dispatched`, inserted by projector-evaluations (once, by dispatch id, so a
-- re-delivered event schedules nothing twice). The command side's evaluation worker claims a row
-- with a lease (`FOR UPDATE SKIP LOCKED`), executes it and marks it finished; a worker that dies
-- mid-run leaves the lease to expire and another (or itself, restarted) takes the row again. The
-- row goes with its run.
CREATE TABLE evaluation_dispatches (
  id uuid PRIMARY KEY,
  run_id uuid NOT NULL REFERENCES evaluation_runs(id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  slice jsonb NOT NULL DEFAULT '{}',
  overwrite boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  created_by_id text,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  finished_at timestamptz,
  outcome text
);
CREATE INDEX evaluation_dispatches_pending ON evaluation_dispatches (created_at) WHERE finished_at IS NULL;
