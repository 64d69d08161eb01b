-- Projects' redaction policies (issue 30), projected from accounts.redaction.policy_set. `policy` is
-- the policy as set (NULL = none); `version` counts the changes, so a replay gives every policy its
-- version again. A project takes its policy with it.
CREATE TABLE redaction_policies (
  project_id uuid PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  policy jsonb,
  version integer NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by_id text
);
