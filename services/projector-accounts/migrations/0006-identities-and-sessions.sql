-- The ways a user has signed in (reference §3.2 `user_identities`): one row per method and subject
-- at the identity provider. A provider's subject belongs to one user, whatever its e-mail becomes.
CREATE TABLE user_identities (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  method text NOT NULL,        -- 'sso:<org>:<provider>', 'social:<p>', 'email:<m>'
  subject text NOT NULL,       -- the provider's `sub` ('' for e-mail methods)
  issuer text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  last_signed_in_at timestamptz NOT NULL,
  PRIMARY KEY (method, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);

-- Signed-out sessions. Session cookies are stateless (signed); a session signed out before its
-- expiry is refused by id until then. Rows past `expires_at` are dead weight and may be deleted.
CREATE TABLE revoked_sessions (
  sid text PRIMARY KEY,
  user_id uuid NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz NOT NULL
);
