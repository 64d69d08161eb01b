// The deployment-wide admission counter (quota_admissions, projector-usage's migrations): per
// organization, meter and period, what ingest admitted. One atomic UPDATE checks the predicate and
// reserves, so every replica shares one exact count with no lag; a period's row starts from the
// exact meter (usage_daily) of that period, so usage before the row existed (or after it was lost)
// counts too.
import type { Pool } from '@llm/postgres';
import type { DayRange } from './period.ts';

type Queryable = Pick<Pool, 'query'>;

export interface Reservation {
  organizationId: string;
  meter: string;
  range: DayRange;
  delta: number;
  limit: number;
  strict: boolean;
}

export interface AdmissionStore {
  /** Adds `delta` if the quota's predicate holds; false = refused (nothing added). */
  reserve(r: Reservation): Promise<boolean>;
  /** Gives a reservation back (its append failed). */
  refund(r: Reservation): Promise<void>;
}

/** The exact value of a counter over [$3, $4) for organization $1 (meter $2): what a period's row starts from. */
const EXACT_METER: Readonly<Record<string, string>> = {
  // The usage meters (projector-usage, a projection of the spans topic).
  traces_ingested: `coalesce((SELECT sum(value) FROM usage_daily
    WHERE organization_id = $1::uuid AND meter = $2 AND day >= $3::date AND day < $4::date), 0)`,
  // Evaluation runs are account facts (the accounts projection's human_evaluations).
  evaluations_run: `(SELECT count(*) FROM human_evaluations h JOIN projects p ON p.id = h.project_id
    WHERE p.organization_id = $1::uuid AND $2::text IS NOT NULL AND h.created_at >= $3::date AND h.created_at < $4::date)`,
};

const PREDICATE = `(CASE WHEN $6::boolean THEN value + $4 <= $5 ELSE $4 <= $5 AND value < $5 END)`;

export function postgresAdmissionStore(q: Queryable): AdmissionStore {
  const reserveOnce = async (r: Reservation): Promise<number> => (await q.query(
    `UPDATE quota_admissions SET value = value + $4
      WHERE organization_id = $1::uuid AND meter = $2 AND period_from = $3::date AND ${PREDICATE}`,
    [r.organizationId, r.meter, r.range.from, r.delta, r.limit, r.strict],
  )).rowCount ?? 0;
  return {
    async reserve(r) {
      if (await reserveOnce(r) > 0) return true;
      // No row yet for this period (or refused): seed it from the exact meter, then decide once more.
      // (Concurrent first requests all get here; one seeds, the others' inserts do nothing, and
      // every one of them decides on the seeded row.)
      await q.query(
        `INSERT INTO quota_admissions (organization_id, meter, period_from, value)
         SELECT $1::uuid, $2, $3::date, ${EXACT_METER[r.meter] ?? '0'}
         ON CONFLICT DO NOTHING`,
        [r.organizationId, r.meter, r.range.from, r.range.to],
      );
      return await reserveOnce(r) > 0;
    },
    async refund(r) {
      await q.query(
        `UPDATE quota_admissions SET value = greatest(value - $4, 0) WHERE organization_id = $1::uuid AND meter = $2 AND period_from = $3::date`,
        [r.organizationId, r.meter, r.range.from, r.delta],
      );
    },
  };
}
