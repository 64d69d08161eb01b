-- The span read model (owned and written only by projector-spans).
-- ReplacingMergeTree by (project_id, trace_id, span_id): the row with the highest `version` (the Kafka
-- offset of the event that produced it) wins, so re-delivery and replay are idempotent; deletions
-- are tombstones (is_deleted = 1) with a higher version. Ordered by trace so that a trace or span
-- read by id touches a few granules, never a project's history.
CREATE TABLE IF NOT EXISTS {db}.spans{suffix} (
  project_id String,
  trace_id String,
  span_id String,
  parent_id String,
  span_name String,
  span_kind LowCardinality(String),
  span_type LowCardinality(String),
  trace_type LowCardinality(String),
  status_code LowCardinality(String),
  status_message String,
  start_time DateTime64(6, 'UTC'),
  end_time DateTime64(6, 'UTC'),
  duration_ms Float64,
  attributes String CODEC(LZ4),
  events String CODEC(LZ4),
  links String,
  references String,
  hashes String,
  session_id String,
  user_id String,
  tokens_incremental Map(LowCardinality(String), Float64),
  costs_incremental Map(LowCardinality(String), Float64),
  errors_incremental Float64,
  tokens_cumulative Map(LowCardinality(String), Float64),
  costs_cumulative Map(LowCardinality(String), Float64),
  errors_cumulative Float64,
  created_at DateTime64(6, 'UTC'),
  version UInt64,
  is_deleted UInt8
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (project_id, trace_id, span_id)
SETTINGS index_granularity = 256;
