-- API keys managed through /keys carry a name to tell them apart (the secret is never shown again).
ALTER TABLE api_keys ADD COLUMN name text NOT NULL DEFAULT '';
CREATE INDEX api_keys_project ON api_keys (project_id, created_at);
