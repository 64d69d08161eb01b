// Ingest admission (reference accounts §2.3, DESIGN "Plans, quotas and throttles"): before spans are
// appended, the traces they bring (root spans) are checked against the organization's
// `traces_ingested` quota and reserved; an append that fails gives the reservation back. Over quota
// = refused before anything is appended, so nothing acknowledged is ever dropped later.
import type { AccessCatalog, PlanResolver } from '@llm/access';
import { AppError } from '@llm/errors';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import type { Pool } from '@llm/postgres';
import { IngestAdmission, postgresAdmissionStore } from '@llm/quota';

const refused = counter('ingest_traces_refused_over_quota_total', 'Traces refused by ingest admission (organization over its traces_ingested quota).');
const checkFailures = counter('ingest_quota_check_failures_total', 'Ingest admissions that could not read the plan or the meter and admitted the request (fail open).');

/** JSON ingest's answer (reference §2.3); OTLP answers 403 with its own Status message. */
export const QUOTA_MESSAGE = 'You have reached your monthly quota limit.';
export const OTLP_QUOTA_MESSAGE = 'You have reached your monthly quota limit. Please upgrade your plan to continue.';

export class QuotaExceededError extends AppError {
  constructor() { super({ code: 'quota_exceeded', kind: 'rate_limited', message: QUOTA_MESSAGE }); }
}

export interface QuotaGate {
  /** Runs `append` if the organization may ingest `traces` more; throws QuotaExceededError otherwise. */
  ingest<T>(organizationId: string, traces: number, append: () => Promise<T>): Promise<T>;
}

export function quotaGate(pool: Pool, plans: PlanResolver, access: Pick<AccessCatalog, 'plans' | 'quota' | 'enforce'>, log: Pick<Logger, 'warn'>): QuotaGate {
  if (!access.enforce) return { ingest: (_org, _traces, append) => append() };
  const admission = new IngestAdmission({
    plans, catalog: access.plans, store: postgresAdmissionStore(pool), refusalCacheMs: access.quota.refusalCacheMs,
    onCheckFailed: (err) => { checkFailures(); log.warn({ err }, 'quota check failed; request admitted'); },
  });
  return {
    async ingest(organizationId, traces, append) {
      const a = await admission.admit(organizationId, 'traces_ingested', traces);
      if (!a.admitted) { refused(traces); throw new QuotaExceededError(); }
      try {
        return await append();
      } catch (err) {
        a.release();
        throw err;
      }
    },
  };
}
