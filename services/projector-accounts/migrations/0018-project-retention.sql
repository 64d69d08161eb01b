-- A project's own retention in minutes (accounts.project.retention_set); 0 = its plan's. Readers take
-- the shorter of this and the plan's retention (packages/retention).
ALTER TABLE projects ADD COLUMN IF NOT EXISTS retention_minutes integer NOT NULL DEFAULT 0;
