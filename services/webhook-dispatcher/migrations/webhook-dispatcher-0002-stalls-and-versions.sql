-- The schedule learns (webhook-dispatcher-0001-schedule.sql):
-- * stalls / last_error: tries of a delivery that neither sent nor recorded an outcome (the record
--   could not be appended, the signing secret could not be opened, Postgres went away mid-attempt).
--   Bounded: after WEBHOOK_STALL_LIMIT of them the delivery ends with a small final `failed` record
--   (no payload) instead of being sent again forever; only that record is retried if it cannot be
--   appended either.
-- * failure: a delivery that ends without being sent (its request could not be prepared or stored at
--   fan-out, e.g. a payload over the size limit): {code, error, url}; request is then NULL.
-- * subscription_version / event: the subscription version the request was built from, and the
--   event as the subscriber sees it, so the sender rebuilds the request from the current
--   subscription when it changed (a new secret is never sent to the URL it replaced).
ALTER TABLE webhook_dispatch_tasks
  ADD COLUMN stalls int NOT NULL DEFAULT 0,
  ADD COLUMN last_error text,
  ADD COLUMN failure jsonb,
  ADD COLUMN subscription_version int,
  -- JSON text (not jsonb: an attribute string may hold U+0000, which jsonb refuses).
  ADD COLUMN event text,
  ALTER COLUMN request DROP NOT NULL;
-- The claim skips through the subscriptions that have rows and takes each one's oldest due rows
-- (one index probe per subscription, whatever the backlog); the leased rows (few: at most the
-- dispatchers' concurrency) are found through their own index.
CREATE INDEX webhook_dispatch_tasks_subscription_due ON webhook_dispatch_tasks (subscription_id, due_at);
DROP INDEX webhook_dispatch_tasks_subscription;
-- Dropped: with it, the planner walks every due row in due order looking for one subscription's.
DROP INDEX webhook_dispatch_tasks_due;
CREATE INDEX webhook_dispatch_tasks_leased ON webhook_dispatch_tasks (lease_until) WHERE lease_until IS NOT NULL;
