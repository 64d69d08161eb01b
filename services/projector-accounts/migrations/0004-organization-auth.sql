-- Organization auth flags (reference §3.5) and SSO providers (§5). `version` counts the changes of
-- each aggregate: commands append with the version they read and the projector applies an event
-- only at that version (optimistic concurrency, DESIGN "Consistency").
ALTER TABLE organizations
  ADD COLUMN flags jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN description text,
  ADD COLUMN updated_at timestamptz,
  ADD COLUMN version int NOT NULL DEFAULT 1;

CREATE TABLE organization_providers (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  slug text NOT NULL,
  name text,
  description text,
  flags jsonb NOT NULL DEFAULT '{}'::jsonb,          -- is_valid, is_active, and the client's own keys
  issuer_url text NOT NULL,
  client_id text NOT NULL,
  client_secret_sealed text NOT NULL,               -- AES-256-GCM under SECRETS_KEY, never plaintext
  scopes text[] NOT NULL,
  extra jsonb NOT NULL DEFAULT '{}'::jsonb,
  version int NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  updated_at timestamptz,
  UNIQUE (organization_id, slug)
);
