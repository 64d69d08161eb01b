// Admission before acknowledgement (reference accounts §2.3, without its silent drop): an ingest
// request adding `delta` traces is checked against the organization's quota and reserved before
// anything is appended; what is admitted is never dropped later, and a reservation whose append
// failed is given back.
//
// The check is exact and deployment-wide: one atomic UPDATE of the organization's admission
// counter (AdmissionStore) per request, so concurrent requests on any number of replicas never
// take more than the predicate allows (strict: never above the limit; non-strict: one request
// crosses the line, then all are refused). Plans without a limit cost nothing (no I/O). An
// organization found over a non-strict limit is refused from memory for `refusalCacheMs` (such a
// limit stays reached until the period or the plan changes), so a client retrying in a loop does
// not cost a write each time.
import type { PlanCatalog, PlanResolver, Quota } from '@llm/access';
import type { AdmissionStore, Reservation } from './admission-store.ts';
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

export type Admission = { admitted: true; release(): void } | { admitted: false; quota: Quota };

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
      if (refusedAt !== undefined && this.now() - refusedAt < this.o.refusalCacheMs) return { admitted: false, quota };
      reservation = { organizationId, meter, range, delta, limit: quota.limit, strict: quota.strict === true };
      if (!await this.o.store.reserve(reservation)) {
        if (!reservation.strict && delta <= quota.limit) this.remember(refusalKey);
        return { admitted: false, quota };
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

  private remember(key: string): void {
    this.refusals.delete(key);
    this.refusals.set(key, this.now());
    if (this.refusals.size > 100_000) this.refusals.delete(this.refusals.keys().next().value!);
  }
}
