-- Webhook subscriptions (reference accounts §9.1), projected from accounts.webhook.* events. The
-- signing secret lives in the vault (`secret_id`, kind webhook_provider), never here.
CREATE TABLE webhook_subscriptions (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text,
  description text,
  tags jsonb,
  meta jsonb,
  is_active boolean NOT NULL DEFAULT true,
  url text NOT NULL,
  headers jsonb,
  payload_fields jsonb,
  auth_mode text NOT NULL DEFAULT 'signature',
  -- NULL = every subscribable event type; '{}' = none.
  event_types text[],
  secret_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz,
  created_by_id text,
  updated_by_id text,
  version int NOT NULL DEFAULT 1
);
CREATE INDEX webhook_subscriptions_project ON webhook_subscriptions (project_id, id DESC);

-- Deliveries (reference accounts §9.4): the projection of webhooks.deliveries.v1, one row per
-- (project, subscription, event), written by the webhook dispatcher's deliveries projector only.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  subscription_id uuid NOT NULL,
  event_id uuid NOT NULL,
  status jsonb NOT NULL,
  data jsonb,
  attempts int NOT NULL DEFAULT 0,
  final boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz,
  -- The envelope id of the last record applied: a command waiting for its write looks for it.
  last_record_id uuid NOT NULL,
  UNIQUE (project_id, subscription_id, event_id)
);
CREATE INDEX webhook_deliveries_project_created ON webhook_deliveries (project_id, created_at DESC, id DESC);

-- Account facts that enter the events log (platform.events.v1), written in the projector's batch
-- transaction and published after it commits (the outbox): only facts become events, and none is
-- lost between the commit and the publish. Ids are derived from the accounts record's position.
CREATE TABLE platform_outbox (
  event_id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  record bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The ids of the deliveries records applied (idempotent re-delivery; a writer waiting for its record
-- looks here). The deliveries projector prunes rows older than a day.
CREATE TABLE webhook_delivery_records (
  record_id uuid PRIMARY KEY,
  delivery_id uuid NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_delivery_records_applied ON webhook_delivery_records (applied_at);
