// Admission before acknowledgement (reference accounts §2.3, without its silent drop): an ingest
// request is checked against the organization's quota and reserved before anything is appended;
// what is admitted is never dropped later, and a reservation whose append failed is given back.
// Traces are admitted by id (admitTraces): a request costs the traces the organization has not
// sent in this period, whether or not their root spans are in it (issue 24: spans naming a made-up
// parent no longer escape); spans of traces it already has cost nothing and always go through.
//
// The check is exact and deployment-wide: one atomic UPDATE of the organization's admission
// counter (AdmissionStore) per request, so concurrent requests on any number of replicas never
// take more than the predicate allows (strict: never above the limit; non-strict: one request
// crosses the line, then all are refused). Plans without a limit cost nothing (no I/O). An
// organization found over a non-strict limit is refused from memory for `refusalCacheMs` (such a
// limit stays reached until the period or the plan changes), so a client retrying in a loop does
// not cost a write each time (counted admissions; a trace request is always looked up, since its
// spans may belong to traces the organization already has — a refusal writes nothing).
import type { PlanCatalog, PlanResolver, Quota } from '@llm/access';
import type { AdmissionStore, Reservation, TraceReservation, TraceReservationResult } from './admission-store.ts';
import { periodRange, type DayRange } from './period.ts';

export interface IngestAdmissionOptions {
  plans: PlanResolver;
  catalog: PlanCatalog;
  store: AdmissionStore;
  refusalCacheMs: number;
  now?: () => number;
  /** The plan or the counter could not be read: the request was admitted (fail open). */
  onCheckFailed?(err: unknown): void;
}

/** Counters checked before a write is acknowledged: ingest (traces) and evaluation runs. */
export type AdmittedCounter = 'traces_ingested' | 'evaluations_run';

export type Admission = { admitted: true; release(): void } | { admitted: false; quota: Quota; /** What was refused (new traces, runs). */ delta: number };

/** A quota without a period (a lifetime counter) is one range over all time. */
const ALL_TIME: DayRange = { from: '1970-01-01', to: '9999-12-31' };
const NOTHING = (): void => undefined;

export class IngestAdmission {
  private readonly refusals = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly o: IngestAdmissionOptions) { this.now = o.now ?? Date.now; }

  /** Checks and reserves `delta` of `meter` for the organization; `release` gives it back (the append failed). */
  async admit(organizationId: string, meter: AdmittedCounter, delta: number): Promise<Admission> {
    if (delta <= 0) return { admitted: true, release: NOTHING };
    let quota: Quota | undefined;
    let reservation: Reservation;
    let refusalKey: string;
    try {
      const { plan, anchor } = await this.o.plans.planOf(organizationId);
      quota = this.o.catalog[plan]?.counters?.[meter];
      if (!quota || quota.limit == null) return { admitted: true, release: NOTHING };
      const range = periodRange(new Date(this.now()), quota.period, anchor) ?? ALL_TIME;
      refusalKey = `${organizationId.toLowerCase()}|${plan}|${meter}|${range.from}`;
      const refusedAt = this.refusals.get(refusalKey);
      if (refusedAt !== undefined && this.now() - refusedAt < this.o.refusalCacheMs) return { admitted: false, quota, delta };
      reservation = { organizationId, meter, range, delta, limit: quota.limit, strict: quota.strict === true };
      if (!await this.o.store.reserve(reservation)) {
        if (!reservation.strict && delta <= quota.limit) this.remember(refusalKey);
        return { admitted: false, quota, delta };
      }
    } catch (err) {
      // Postgres away: fail open (as the reference does); the spans still land and are metered.
      this.o.onCheckFailed?.(err);
      return { admitted: true, release: NOTHING };
    }
    return {
      admitted: true,
      release: () => { this.o.store.refund(reservation).catch((err: unknown) => this.o.onCheckFailed?.(err)); },
    };
  }

  /**
   * Checks and reserves the traces of `traceIds` (of project `projectId`) the organization has not
   * sent in this quota period; `release` gives them back (the append failed). One statement per
   * request on plans with a limit, none on plans without.
   */
  async admitTraces(organizationId: string, projectId: string, traceIds: readonly string[]): Promise<Admission> {
    if (traceIds.length === 0) return { admitted: true, release: NOTHING };
    let quota: Quota | undefined;
    let reservation: TraceReservation;
    let result: TraceReservationResult;
    try {
      const { plan, anchor } = await this.o.plans.planOf(organizationId);
      quota = this.o.catalog[plan]?.counters?.traces_ingested;
      if (!quota || quota.limit == null) return { admitted: true, release: NOTHING };
      const range = periodRange(new Date(this.now()), quota.period, anchor) ?? ALL_TIME;
      reservation = { organizationId, projectId, traceIds, range, limit: quota.limit, strict: quota.strict === true };
      result = await this.o.store.reserveTraces(reservation);
      if (!result.admitted) return { admitted: false, quota, delta: result.delta };
    } catch (err) {
      // Postgres away: fail open (as the reference does); the spans still land and are metered.
      this.o.onCheckFailed?.(err);
      return { admitted: true, release: NOTHING };
    }
    if (result.delta === 0) return { admitted: true, release: NOTHING };
    const reserved = result;
    return {
      admitted: true,
      release: () => { this.o.store.refundTraces(reservation, reserved).catch((err: unknown) => this.o.onCheckFailed?.(err)); },
    };
  }

  private remember(key: string): void {
    this.refusals.delete(key);
    this.refusals.set(key, this.now());
    if (this.refusals.size > 100_000) this.refusals.delete(this.refusals.keys().next().value!);
  }
}
