-- Usage reported to the payments processor (reference accounts §11 "A cron reports counters"): one
-- row per report of a meter's delta for an organization's billing period. The row is written
-- (pending) BEFORE the processor is called and marked sent after; a crash in between leaves it
-- pending, and the next run sends the same identifier and value again, which the processor answers
-- from the first report: nothing is billed twice. to_value is the period's total once sent.
CREATE TABLE usage_reports (
  organization_id uuid NOT NULL,
  meter text NOT NULL,
  period_from date NOT NULL,
  seq integer NOT NULL,
  customer_id text NOT NULL,
  from_value bigint NOT NULL,
  to_value bigint NOT NULL CHECK (to_value > from_value),
  identifier text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('pending', 'sent')),
  created_at timestamptz NOT NULL,
  sent_at timestamptz,
  PRIMARY KEY (organization_id, meter, period_from, seq)
);

CREATE INDEX usage_reports_pending ON usage_reports (organization_id) WHERE status = 'pending';
