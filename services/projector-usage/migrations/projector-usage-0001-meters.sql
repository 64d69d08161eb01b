-- Usage meters (reference accounts §2.2): counters per organization, project, meter and UTC day,
-- projected from the spans topic by projector-usage (offsets in the same transaction, so each
-- record counts exactly once; a replay into an empty table rebuilds the same values). Quota periods
-- are ranges of days (the billing anchor moves without re-metering).
CREATE TABLE usage_daily (
  organization_id uuid NOT NULL,
  project_id uuid NOT NULL,
  meter text NOT NULL,
  day date NOT NULL,
  value bigint NOT NULL,
  PRIMARY KEY (organization_id, meter, day, project_id)
);

-- Ingest admission (packages/quota): what the command side admitted per organization, meter and
-- quota period, reserved atomically before spans are appended (deployment-wide, exact). A period's
-- row starts from usage_daily; usage_daily stays the truth for reports and billing.
CREATE TABLE quota_admissions (
  organization_id uuid NOT NULL,
  meter text NOT NULL,
  period_from date NOT NULL,
  value bigint NOT NULL,
  PRIMARY KEY (organization_id, meter, period_from)
);
