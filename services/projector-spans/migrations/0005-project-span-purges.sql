-- The span purge's ledger (src/purge/span-purge.ts): the deleted projects whose rows left spans and
-- trace_index. projector-spans' own, beside the tables it purges (one writer per table); a replay
-- that rebuilds the span tables empties it, so the rebuilt tables are purged again. Never suffixed:
-- a replay's migration run finds it there.
CREATE TABLE IF NOT EXISTS {db}.project_span_purges (
  project_id String,
  purged_at DateTime64(6, 'UTC') DEFAULT now64(6)
) ENGINE = ReplacingMergeTree
ORDER BY project_id;
