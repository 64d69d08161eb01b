-- Environments (reference evaluations §2.9) join the artifact model as a third family.
ALTER TABLE artifacts DROP CONSTRAINT IF EXISTS artifacts_family_check;
ALTER TABLE artifacts ADD CONSTRAINT artifacts_family_check CHECK (family IN ('testset', 'workflow', 'environment'));
