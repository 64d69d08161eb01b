-- The events log of every project (POST /events/query): one row per platform.events.v1 record,
-- written only by projector-events. Idempotent by event: a re-delivered record has the same
-- (project_id, timestamp, event_id) — every producer fixes an event's time with its id — so
-- ReplacingMergeTree keeps one row and reads use FINAL. Ordered for a project's time-ordered reads.
-- File names are unique across ClickHouse migration dirs (the ledger is keyed by name).
CREATE TABLE IF NOT EXISTS {db}.platform_events{suffix} (
  project_id String,
  timestamp DateTime64(6, 'UTC'),
  event_id String,
  request_id String,
  request_type LowCardinality(String),
  event_type LowCardinality(String),
  status_code String,
  status_message String,
  attributes String,
  created_at DateTime64(6, 'UTC'),
  INDEX event_id_idx event_id TYPE bloom_filter(0.01) GRANULARITY 4,
  INDEX request_id_idx request_id TYPE bloom_filter(0.01) GRANULARITY 4,
  INDEX event_type_idx event_type TYPE set(256) GRANULARITY 4
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(timestamp)
ORDER BY (project_id, timestamp, event_id);
