-- Columns computed by ClickHouse on insert for analytics over whole months:
--  * the `total` entries of the token and cost maps (reading a Map column means reading every key
--    and value of every row, several times the cost of one Float64 column);
--  * `is_root`, the root-span population of trace-focused analytics, one byte instead of a string.
ALTER TABLE {db}.spans{suffix}
  ADD COLUMN IF NOT EXISTS is_root UInt8 MATERIALIZED parent_id = '',
  ADD COLUMN IF NOT EXISTS tokens_total_cumulative Float64 MATERIALIZED tokens_cumulative['total'],
  ADD COLUMN IF NOT EXISTS costs_total_cumulative Float64 MATERIALIZED costs_cumulative['total'],
  ADD COLUMN IF NOT EXISTS tokens_total_incremental Float64 MATERIALIZED tokens_incremental['total'],
  ADD COLUMN IF NOT EXISTS costs_total_incremental Float64 MATERIALIZED costs_incremental['total'];

-- Rows written before this migration get the columns written out in the background (until then they
-- are computed on read, with the same values).
ALTER TABLE {db}.spans{suffix}
  MATERIALIZE COLUMN is_root, MATERIALIZE COLUMN tokens_total_cumulative, MATERIALIZE COLUMN costs_total_cumulative,
  MATERIALIZE COLUMN tokens_total_incremental, MATERIALIZE COLUMN costs_total_incremental;
