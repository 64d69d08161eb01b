-- Every rejection is recorded with its typed code (@llm/account-model) and the details a client
-- gets with it (e.g. the current version of a changed aggregate). Rows from before keep a NULL code.
ALTER TABLE events ADD COLUMN IF NOT EXISTS rejection_details jsonb;
