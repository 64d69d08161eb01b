-- Where each trace lies in time: the span table is ordered by start_time, so a read by trace id
-- (GET /traces/{id}, the projector's read-before-write) first looks up the trace's first and last
-- span start here, then reads that range of the span table. Written by the projector before the
-- span rows of each batch (so the index always covers what the table holds); min/max only widen,
-- which keeps it correct when spans move or are deleted (the range is a superset).
CREATE TABLE IF NOT EXISTS {db}.trace_index{suffix} (
  project_id LowCardinality(String),
  trace_id String,
  first_start SimpleAggregateFunction(min, DateTime64(6, 'UTC')),
  last_start SimpleAggregateFunction(max, DateTime64(6, 'UTC'))
)
ENGINE = AggregatingMergeTree
ORDER BY (project_id, trace_id)
SETTINGS index_granularity = 1024;

-- Data directories created before this migration: index what the span table already holds.
INSERT INTO {db}.trace_index{suffix}
SELECT project_id, trace_id, min(start_time), max(start_time) FROM {db}.spans{suffix} GROUP BY project_id, trace_id;
