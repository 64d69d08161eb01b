-- The root spans of every trace, beside the span table (issue 26): trace-focused analytics (the
-- default focus of both analytics routes) summarise roots only, and on the span table a root is one
-- row in ten, so every such read scanned all rows of its window and kept a tenth. Here the same rows
-- (same columns, same ordering key, same versions and tombstones) hold only the roots: a 30-day
-- legacy panel reads a tenth of the rows.
--
-- Written by projector-spans in the same insert as the span rows (adapters/span-table-writer.ts):
-- every version of a root span, every tombstone of a root, and a tombstone when a root gains a
-- parent under the same key, so FINAL here answers what `spans FINAL WHERE is_root = 1` answers.
-- Its schema follows the span table's: a migration that changes one changes both.
CREATE TABLE IF NOT EXISTS {db}.trace_roots{suffix} AS {db}.spans{suffix};

ALTER TABLE {db}.trace_roots{suffix} DROP PROJECTION IF EXISTS session_activity, DROP PROJECTION IF EXISTS user_activity;

-- Data directories created before this migration: copy the current roots.
INSERT INTO {db}.trace_roots{suffix} SELECT * FROM {db}.spans{suffix} FINAL WHERE is_root = 1;
