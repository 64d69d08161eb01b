-- Projects that left the accounts read model, for the span purge (the query service's purge worker
-- deletes their rows from ClickHouse). A row trigger rather than a statement in each projection:
-- projects go by foreign-key cascade from several paths (an organization deleted, a user deleted with
-- the organizations they own, a project deleted), and a trigger sees every one of them, including
-- paths added later. Row triggers do not fire on TRUNCATE, so emptying the read model for a rebuild
-- never tombstones a live project.
--
-- deleted_at is the time of the accounts event that removed the project (the projector sets
-- `accounts.event_time` for the event's transaction), so a replay of the accounts topic rebuilds the
-- same rows; now() only when a statement runs outside the projector.
CREATE TABLE project_tombstones (
  project_id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  deleted_at timestamptz NOT NULL
);
CREATE INDEX project_tombstones_time ON project_tombstones (deleted_at);

-- The purge worker's own bookkeeping, apart from the projection so that a rebuilt read model (which
-- has every tombstone again) is purged again: deleting rows that are already gone is harmless.
CREATE TABLE project_span_purges (
  project_id uuid PRIMARY KEY,
  purged_at timestamptz NOT NULL
);

CREATE FUNCTION project_tombstone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO project_tombstones (project_id, organization_id, deleted_at)
  VALUES (OLD.id, OLD.organization_id, COALESCE(NULLIF(current_setting('accounts.event_time', true), '')::timestamptz, now()))
  ON CONFLICT (project_id) DO NOTHING;
  RETURN OLD;
END $$;

CREATE TRIGGER projects_tombstone AFTER DELETE ON projects FOR EACH ROW EXECUTE FUNCTION project_tombstone();
