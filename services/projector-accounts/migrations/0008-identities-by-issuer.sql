-- An SSO subject means something only at the issuer that assigned it: identities are keyed by
-- (method, issuer, subject), so a provider re-pointed at another issuer, or deleted and re-created
-- under the same slug elsewhere, cannot reach the users its predecessor linked. Rows already carry
-- the issuer of their sign-in (0006), so the existing links keep working.
ALTER TABLE user_identities DROP CONSTRAINT user_identities_pkey;
ALTER TABLE user_identities ADD PRIMARY KEY (method, issuer, subject);
