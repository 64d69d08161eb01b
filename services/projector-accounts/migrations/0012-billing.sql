-- An organization's subscription record (reference accounts §11), projected from
-- accounts.billing.subscription_set and from the plan an account is provisioned with. No row = an
-- organization created before plans per organization: the deployment's default plan applies.
CREATE TABLE organization_subscriptions (
  organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  plan text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  anchor smallint NOT NULL CHECK (anchor BETWEEN 1 AND 31),
  customer_id text,
  subscription_id text,
  trialing boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL
);

-- Processor events already applied (their id is the idempotency key): a redelivered event changes nothing.
CREATE TABLE billing_processor_events (
  event_id text PRIMARY KEY,
  organization_id uuid NOT NULL,
  applied_at timestamptz NOT NULL
);
