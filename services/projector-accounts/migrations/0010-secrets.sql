-- Vault secrets (reference accounts §6), projected from accounts.secret.* events. No column holds a
-- credential in clear: `sealed_data` is the whole `data` sealed under the secret's data key.
CREATE TABLE secrets (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  slug text NOT NULL,
  kind text NOT NULL,
  name text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  public_data jsonb NOT NULL DEFAULT '{}'::jsonb,
  sealed_data text NOT NULL,
  write_only boolean NOT NULL DEFAULT true,
  managed_by text,
  configured boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz,
  updated_by_id text,
  -- Counts the secret's changes: a change made at the version it read (e.g. a stored login) applies only there.
  version int NOT NULL DEFAULT 1,
  UNIQUE (project_id, slug)
);

-- The key store: the data key of each vault secret and of each SSO provider's client secret, wrapped
-- under the key ring (SECRETS_KEY). Written by the command side only, never through the log and
-- never rebuilt by a replay: deleting a row shreds the secret (its sealed value, in the topic and in
-- any copy of the tables, can no longer be opened). `secret_id` is the vault secret's or the
-- provider's id; `owner_id` its project (vault) or organization (SSO provider), bound into the
-- wrapping. Back it up with the key ring; see README → Secrets at rest.
CREATE TABLE secret_keys (
  secret_id uuid PRIMARY KEY,
  owner_id uuid NOT NULL,
  wrapped_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
