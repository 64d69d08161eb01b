-- The subscriptions deleted, as the dispatcher learnt them from the accounts topic itself
-- (`accounts.webhook.deleted`, consumed by subscription-deletions/): deleting one removes its
-- deliveries (reference §9.3: deliveries cascade) and keeps its id here, so a delivery record
-- consumed after the deletion (a late attempt's record, a rebuild where the deliveries topic is read
-- before the accounts topic) is never projected again. A delivery needs nothing else of the
-- subscription to be projected, so the deliveries topic never waits for the accounts one.
-- deleted_at is the accounts event's time: a rebuild writes the same rows.
CREATE TABLE webhook_deleted_subscriptions (
  subscription_id uuid NOT NULL,
  project_id uuid NOT NULL,
  deleted_at timestamptz NOT NULL,
  PRIMARY KEY (subscription_id, project_id)
);
