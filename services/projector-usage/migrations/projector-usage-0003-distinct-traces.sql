-- Traces are metered as distinct trace ids (issue 24): a trace the organization did not have
-- before counts, whether or not its root span is in the request. And the meters gain the user
-- dimension a user-scoped quota reads (`traces_retrieved`, reference accounts §2.2).

-- '' = no user (records that name none).
ALTER TABLE usage_daily ADD COLUMN user_id text NOT NULL DEFAULT '';
ALTER TABLE usage_daily DROP CONSTRAINT usage_daily_pkey;
ALTER TABLE usage_daily ADD PRIMARY KEY (organization_id, meter, day, project_id, user_id);

-- The usage projector's first-seen set (its only writer, with usage_daily, in the same
-- transaction as its offsets): a trace counts on the day of its first record, and again only when
-- a record comes TRACE_SEEN_DAYS or more after the day it last counted. Rows past that horizon
-- (plus the spans topic's retention) can never decide anything again and are deleted.
CREATE TABLE usage_traces_seen (
  project_id uuid NOT NULL,
  trace_id uuid NOT NULL,
  counted_on date NOT NULL,
  PRIMARY KEY (project_id, trace_id)
);
CREATE INDEX usage_traces_seen_counted_on ON usage_traces_seen (counted_on);

-- Ingest admission's seen set (packages/quota, written by the command side only for organizations
-- whose plan limits traces_ingested): the traces already reserved in the organization's current
-- quota period, so spans of a trace it already has cost nothing and a new trace costs one. Rows of
-- past periods are deleted when the next period's counter is seeded.
CREATE TABLE quota_traces_seen (
  organization_id uuid NOT NULL,
  period_from date NOT NULL,
  project_id uuid NOT NULL,
  trace_id uuid NOT NULL,
  PRIMARY KEY (organization_id, period_from, project_id, trace_id)
);
