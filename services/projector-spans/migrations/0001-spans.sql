-- The span read model (owned and written only by projector-spans).
-- ReplacingMergeTree: for one ordering key the row with the highest `version` (the Kafka offset of
-- the event that produced it) wins, so re-delivery and replay are idempotent; deletions are
-- tombstones (is_deleted = 1) with a higher version. When a span's start_time changes, the projector
-- writes a tombstone under the old key (see domain/trace-state.ts).
--
-- Ordered by time within a project: dashboards and searches read recent windows ("the last 24 h,
-- newest first"), which become a range of the primary key read in order and stopped at the page
-- size; FINAL stays cheap because parts of older time ranges do not overlap the ones being written.
-- Reads by trace id first find the trace's time range in `trace_index` (0002), then read that range
-- with the bloom filter on trace_id. Monthly partitions keep merges and retention (DROP PARTITION)
-- local to a month.
CREATE TABLE IF NOT EXISTS {db}.spans{suffix} (
  -- LowCardinality: every query filters on it, and comparing a dictionary index is several times
  -- cheaper than comparing a 36-character id on each row (a part holds few projects).
  project_id LowCardinality(String),
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
  attributes String CODEC(ZSTD(1)),
  events String CODEC(ZSTD(1)),
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
  is_deleted UInt8,
  -- Session and user of ANY span (the session_id/user_id columns hold the root-only values of the
  -- API), extracted once at insert for the sessions and users queries.
  any_session_id LowCardinality(String) MATERIALIZED JSONExtractString(attributes, 'ag', 'session', 'id'),
  any_user_id LowCardinality(String) MATERIALIZED JSONExtractString(attributes, 'ag', 'user', 'id'),
  INDEX trace_id_bf trace_id TYPE bloom_filter(0.01) GRANULARITY 1,
  INDEX span_id_bf span_id TYPE bloom_filter(0.01) GRANULARITY 1,
  INDEX any_session_bf any_session_id TYPE bloom_filter(0.01) GRANULARITY 4,
  INDEX any_user_bf any_user_id TYPE bloom_filter(0.01) GRANULARITY 4
)
ENGINE = ReplacingMergeTree(version, is_deleted)
PARTITION BY toYYYYMM(start_time)
PRIMARY KEY (project_id, start_time)
ORDER BY (project_id, start_time, trace_id, span_id)
SETTINGS index_granularity = 256;
