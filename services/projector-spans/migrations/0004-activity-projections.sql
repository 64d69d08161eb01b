-- Sessions and users pages (POST /spans/sessions/query, /spans/users/query) without reading every
-- span: per project and id, the earliest and latest start of any stored row, kept by ClickHouse in
-- each part. They are bounds, not answers (superseded versions count until merged away); the query
-- side checks them (services/query/src/adapters/activity-search.ts). On merges of the replacing
-- table the projections are rebuilt from the surviving rows.
ALTER TABLE {db}.spans{suffix} MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild';

ALTER TABLE {db}.spans{suffix}
  ADD PROJECTION IF NOT EXISTS session_activity (
    SELECT project_id, is_deleted, any_session_id, min(start_time), max(start_time) GROUP BY project_id, is_deleted, any_session_id),
  ADD PROJECTION IF NOT EXISTS user_activity (
    SELECT project_id, is_deleted, any_user_id, min(start_time), max(start_time) GROUP BY project_id, is_deleted, any_user_id);

-- Parts written before this migration get the projections in the background (until then the
-- query reads those parts' rows instead).
ALTER TABLE {db}.spans{suffix} MATERIALIZE PROJECTION session_activity, MATERIALIZE PROJECTION user_activity;
