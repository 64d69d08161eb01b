-- Accounts read model (owned and written only by projector-accounts).
CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  username text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL
);

CREATE TABLE workspaces (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL,
  slug text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE projects (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL,
  slug text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL
);

CREATE TABLE memberships (
  scope text NOT NULL CHECK (scope IN ('organization', 'workspace', 'project')),
  scope_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (scope, scope_id, user_id)
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  prefix text NOT NULL,
  secret_hash text NOT NULL,
  expires_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX api_keys_lookup ON api_keys (prefix, secret_hash);

-- Every consumed accounts event with its outcome: the event log for queries, the idempotency guard
-- for re-delivery, and what a waiting command reads to answer (read-your-writes).
CREATE TABLE events (
  event_id uuid PRIMARY KEY,
  type text NOT NULL,
  aggregate_id text NOT NULL,
  project_id text NOT NULL DEFAULT '',
  organization_id text NOT NULL DEFAULT '',
  occurred_at timestamptz NOT NULL,
  request_id text NOT NULL DEFAULT '',
  topic text NOT NULL,
  partition int NOT NULL,
  "offset" bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('applied', 'rejected')),
  rejection text,
  payload jsonb NOT NULL
);
CREATE INDEX events_time ON events (occurred_at);

-- Consumed positions, written in the same transaction as the changes they cover.
CREATE TABLE projector_offsets (
  consumer text NOT NULL,
  topic text NOT NULL,
  partition int NOT NULL,
  next_offset bigint NOT NULL,
  PRIMARY KEY (consumer, topic, partition)
);
