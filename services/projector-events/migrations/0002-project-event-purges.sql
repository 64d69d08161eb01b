-- The events purge's ledger (src/purge/event-purge.ts): the deleted projects whose rows left
-- platform_events. projector-events' own, beside the table it purges (one writer per table).
CREATE TABLE IF NOT EXISTS {db}.project_event_purges (
  project_id String,
  purged_at DateTime64(6, 'UTC') DEFAULT now64(6)
) ENGINE = ReplacingMergeTree
ORDER BY project_id;
