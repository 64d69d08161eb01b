// The deployment-wide admission counter (quota_admissions, projector-usage's migrations): per
// organization, meter and period, what ingest admitted. One atomic UPDATE checks the predicate and
// reserves, so every replica shares one exact count with no lag; a period's row starts from the
// exact meter (usage_daily) of that period, so usage before the row existed (or after it was lost)
// counts too. Traces are reserved by id (reserveTraces): a request costs the traces of its ids the
// organization has not sent in this period (quota_traces_seen), found, checked and reserved in one
// statement.
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

/** A request's traces, by id, against the organization's `traces_ingested` quota. */
export interface TraceReservation {
  organizationId: string;
  projectId: string;
  /** The trace ids the request stores spans of (32 hex; duplicates allowed). */
  traceIds: readonly string[];
  range: DayRange;
  limit: number;
  strict: boolean;
}

/** What a trace reservation found: `delta` new traces, reserved or refused; `seen` = the ids it added to the period's set. */
export interface TraceReservationResult { admitted: boolean; delta: number; seen: string[] }

export interface AdmissionStore {
  /** Adds `delta` if the quota's predicate holds; false = refused (nothing added). */
  reserve(r: Reservation): Promise<boolean>;
  /** Gives a reservation back (its append failed). */
  refund(r: Reservation): Promise<void>;
  /**
   * Reserves the request's traces the organization has not sent in this period: admitted when there
   * are none, or when the predicate holds for them (then they are remembered); refused = nothing added.
   */
  reserveTraces(r: TraceReservation): Promise<TraceReservationResult>;
  /** Gives a trace reservation back (its append failed): the count, and the ids it remembered. */
  refundTraces(r: TraceReservation, result: TraceReservationResult): Promise<void>;
}

/** The exact value of a counter over [$3, $4) for organization $1 (meter $2): what a period's row starts from. */
const EXACT_METER: Readonly<Record<string, string>> = {
  // The usage meters (projector-usage, a projection of the spans topic).
  traces_ingested: `coalesce((SELECT sum(value) FROM usage_daily
    WHERE organization_id = $1::uuid AND meter = $2 AND day >= $3::date AND day < $4::date), 0)`,
  // Evaluation runs: the legacy human evaluations (accounts projection) and the runs of
  // evaluations.v1 (projector-evaluations' evaluation_runs), created in the period.
  evaluations_run: `((SELECT count(*) FROM human_evaluations h JOIN projects p ON p.id = h.project_id
    WHERE p.organization_id = $1::uuid AND $2::text IS NOT NULL AND h.created_at >= $3::date AND h.created_at < $4::date)
    + (SELECT count(*) FROM evaluation_runs r JOIN projects p ON p.id = r.project_id
    WHERE p.organization_id = $1::uuid AND r.created_at >= $3::date AND r.created_at < $4::date))`,
};

const PREDICATE = `(CASE WHEN $6::boolean THEN value + $4 <= $5 ELSE $4 <= $5 AND value < $5 END)`;

/** A trace id as the seen sets store it: 32 hex is a UUID's 128 bits; anything else by its hash. */
const TRACE_UUID = (col: string): string => `(CASE WHEN ${col} ~ '^[0-9a-fA-F]{32}$' THEN ${col}::uuid ELSE md5(${col})::uuid END)`;

// The seen ids are looked up as one array on the whole key (one index probe per id): an anti-join
// the planner may turn into a scan of the organization's whole period when its statistics are
// young made every request read every trace the organization had sent (bench:ingest: 36 M index
// tuples read in 40 s, Postgres 56-66 µs per span).
/**
 * One statement: the request's ids not in the period's seen set ($1 organization, $2 project, $3
 * period, $4 ids), the predicate on them ($5 limit, $6 strict), the reservation, and — only when
 * reserved — the ids remembered. Two requests racing with the same new id both reserve it (the
 * counter runs ahead by one, never behind); `seeded` = the period's counter row exists.
 */
const RESERVE_TRACES = `
  WITH ids AS (SELECT DISTINCT ${TRACE_UUID('t')} AS tid FROM unnest($4::text[]) AS x(t)),
  fresh AS (
    SELECT tid FROM ids EXCEPT
    SELECT s.trace_id FROM quota_traces_seen s
     WHERE s.organization_id = $1::uuid AND s.period_from = $3::date AND s.project_id = $2::uuid
       AND s.trace_id = ANY (ARRAY(SELECT tid FROM ids))),
  n AS (SELECT count(*)::int AS delta FROM fresh),
  upd AS (
    UPDATE quota_admissions q SET value = q.value + n.delta FROM n
     WHERE n.delta > 0 AND q.organization_id = $1::uuid AND q.meter = 'traces_ingested' AND q.period_from = $3::date
       AND (CASE WHEN $6::boolean THEN q.value + n.delta <= $5 ELSE n.delta <= $5 AND q.value < $5 END)
    RETURNING 1),
  ins AS (
    INSERT INTO quota_traces_seen (organization_id, period_from, project_id, trace_id)
    SELECT $1::uuid, $3::date, $2::uuid, tid FROM fresh WHERE EXISTS (SELECT 1 FROM upd)
    ON CONFLICT DO NOTHING RETURNING trace_id)
  SELECT n.delta,
    EXISTS (SELECT 1 FROM upd) AS reserved,
    EXISTS (SELECT 1 FROM quota_admissions WHERE organization_id = $1::uuid AND meter = 'traces_ingested' AND period_from = $3::date) AS seeded,
    (SELECT coalesce(array_agg(trace_id::text), '{}') FROM ins) AS seen
  FROM n`;

export function postgresAdmissionStore(q: Queryable): AdmissionStore {
  const reserveOnce = async (r: Reservation): Promise<number> => (await q.query(
    `UPDATE quota_admissions SET value = value + $4
      WHERE organization_id = $1::uuid AND meter = $2 AND period_from = $3::date AND ${PREDICATE}`,
    [r.organizationId, r.meter, r.range.from, r.delta, r.limit, r.strict],
  )).rowCount ?? 0;
  const seed = async (organizationId: string, meter: string, range: DayRange): Promise<void> => {
    await q.query(
      `INSERT INTO quota_admissions (organization_id, meter, period_from, value)
       SELECT $1::uuid, $2, $3::date, ${EXACT_METER[meter] ?? '0'}
       ON CONFLICT DO NOTHING`,
      [organizationId, meter, range.from, range.to],
    );
  };
  const reserveTracesOnce = async (r: TraceReservation) => (await q.query<{ delta: number; reserved: boolean; seeded: boolean; seen: string[] }>(
    RESERVE_TRACES, [r.organizationId, r.projectId, r.range.from, r.traceIds, r.limit, r.strict],
  )).rows[0]!;
  return {
    async reserveTraces(r) {
      if (r.traceIds.length === 0) return { admitted: true, delta: 0, seen: [] };
      let out = await reserveTracesOnce(r);
      if (out.delta > 0 && !out.reserved && !out.seeded) {
        // The period's first request: seed its counter from the exact meter (and forget the past
        // periods' seen ids), then decide once more.
        await seed(r.organizationId, 'traces_ingested', r.range);
        await q.query('DELETE FROM quota_traces_seen WHERE organization_id = $1::uuid AND period_from < $2::date', [r.organizationId, r.range.from]);
        out = await reserveTracesOnce(r);
      }
      return { admitted: out.delta === 0 || out.reserved, delta: out.delta, seen: out.seen };
    },
    async refundTraces(r, result) {
      if (result.delta <= 0 || !result.admitted) return;
      await q.query(
        `WITH gone AS (DELETE FROM quota_traces_seen WHERE organization_id = $1::uuid AND period_from = $3::date AND project_id = $2::uuid AND trace_id = ANY($5::uuid[]))
         UPDATE quota_admissions SET value = greatest(value - $4, 0) WHERE organization_id = $1::uuid AND meter = 'traces_ingested' AND period_from = $3::date`,
        [r.organizationId, r.projectId, r.range.from, result.delta, result.seen],
      );
    },
    async reserve(r) {
      if (await reserveOnce(r) > 0) return true;
      // No row yet for this period (or refused): seed it from the exact meter, then decide once more.
      // (Concurrent first requests all get here; one seeds, the others' inserts do nothing, and
      // every one of them decides on the seeded row.)
      await seed(r.organizationId, r.meter, r.range);
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
