-- The webhook dispatcher's durable schedule: one row per delivery still to be attempted (fan-out
-- inserts it in the same transaction as the platform topic's consumed offsets; the sender deletes
-- it once a final outcome is recorded). The request is prepared at fan-out (url, body, headers);
-- the signature is added at send time. Claims are leases: a row whose lease ran out (its process
-- died mid-send) is claimed again, so nothing is lost (at-least-once; same Idempotency-Key).
CREATE TABLE webhook_dispatch_tasks (
  delivery_id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  subscription_id uuid NOT NULL,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  -- PreparedDelivery (@llm/webhooks): url, payload, body (the exact bytes signed), headers.
  request jsonb NOT NULL,
  -- Attempts made so far.
  attempts int NOT NULL DEFAULT 0,
  due_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  lease_owner text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_dispatch_tasks_due ON webhook_dispatch_tasks (due_at);
CREATE INDEX webhook_dispatch_tasks_subscription ON webhook_dispatch_tasks (subscription_id);
