-- Domains claimed by organizations (reference §4). `created_at` is the issue time of the current
-- token (it restarts with every new token, as the 48-hour expiry counts from it).
CREATE TABLE organization_domains (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  domain text NOT NULL,
  name text,
  description text,
  token text,
  is_verified boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz
);
CREATE UNIQUE INDEX organization_domains_per_org ON organization_domains (organization_id, domain);
-- A domain name is verified by at most one organization.
CREATE UNIQUE INDEX organization_domains_verified ON organization_domains (domain) WHERE is_verified;
