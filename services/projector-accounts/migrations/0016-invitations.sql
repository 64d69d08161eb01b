-- Invitations to an organization's workspace (compat §3.1), projected from accounts.invitation.*
-- events. Only the SHA-256 (hex) of a token is kept. An organization or workspace takes its
-- invitations with it; the project only shapes the link the inviter got, so it is kept as written.
CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  project_id uuid,
  email text NOT NULL,                -- lowercase
  role text NOT NULL,
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  inviter_id uuid,
  accepted_at timestamptz,
  accepted_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz
);
CREATE UNIQUE INDEX invitations_token ON invitations (token_hash);
-- One pending invitation per e-mail and organization (the aggregate refuses a second one).
CREATE UNIQUE INDEX invitations_pending ON invitations (organization_id, email) WHERE accepted_at IS NULL;
