// Ingest admission (reference accounts §2.3, DESIGN "Plans, quotas and throttles"): before spans are
// appended, the traces they bring (the distinct trace ids the organization has not sent in this
// period, root span or not) are checked against the organization's `traces_ingested` quota and
// reserved; an append that fails gives the reservation back. Over quota = refused before anything
// is appended, so nothing acknowledged is ever dropped later.
import type { AccessCatalog, PlanResolver } from '@llm/access';
import { AppError } from '@llm/errors';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import type { Pool } from '@llm/postgres';
import { IngestAdmission, postgresAdmissionStore, type Admission, type AdmittedCounter } from '@llm/quota';
import { isProjectionLag } from '../../accounts/adapters/account-commands.ts';

const refused = counter('ingest_traces_refused_over_quota_total', 'Traces refused by ingest admission (organization over its traces_ingested quota).');
const checkFailures = counter('ingest_quota_check_failures_total', 'Ingest admissions that could not read the plan or the meter and admitted the request (fail open).');

/** JSON ingest's answer (reference §2.3); OTLP answers 403 with its own Status message. */
export const QUOTA_MESSAGE = 'You have reached your monthly quota limit.';
export const OTLP_QUOTA_MESSAGE = 'You have reached your monthly quota limit. Please upgrade your plan to continue.';

export const EVALUATIONS_QUOTA_MESSAGE = 'You have reached your monthly evaluations quota.';

export class QuotaExceededError extends AppError {
  constructor(message = QUOTA_MESSAGE) { super({ code: 'quota_exceeded', kind: 'rate_limited', message }); }
}

export interface QuotaGate {
  /**
   * Runs `append` if the organization may ingest spans of `traceIds` (of project `projectId`): the
   * ids it has not sent in this period are new traces; throws QuotaExceededError otherwise.
   */
  ingest<T>(scope: { organizationId: string; projectId: string }, traceIds: readonly string[], append: () => Promise<T>): Promise<T>;
  /** Runs `append` if the organization may run one more evaluation (`evaluations_run`, §2.3: 429 otherwise). */
  evaluation<T>(organizationId: string, append: () => Promise<T>): Promise<T>;
}

export function quotaGate(pool: Pool, plans: PlanResolver, access: Pick<AccessCatalog, 'plans' | 'quota' | 'enforce'>, log: Pick<Logger, 'warn'>): QuotaGate {
  if (!access.enforce) return { ingest: (_scope, _traces, append) => append(), evaluation: (_org, append) => append() };
  const admission = new IngestAdmission({
    plans, catalog: access.plans, store: postgresAdmissionStore(pool), refusalCacheMs: access.quota.refusalCacheMs,
    onCheckFailed: (err) => { checkFailures(); log.warn({ err }, 'quota check failed; request admitted'); },
  });
  /** Reserves, runs the append, gives the reservation back if it recorded nothing. */
  async function guarded<T>(admitted: Promise<Admission>, counter: AdmittedCounter, message: string, append: () => Promise<T>): Promise<T> {
    const a = await admitted;
    if (!a.admitted) {
      if (counter === 'traces_ingested') refused(a.delta);
      throw new QuotaExceededError(message);
    }
    try {
      return await append();
    } catch (err) {
      // Appended but not projected yet (503 projection_lag): the change will still apply, so it keeps
      // its reservation; any other failure recorded nothing and gives it back.
      if (!isProjectionLag(err)) a.release();
      throw err;
    }
  }
  return {
    ingest: (scope, traceIds, append) => guarded(admission.admitTraces(scope.organizationId, scope.projectId, traceIds), 'traces_ingested', QUOTA_MESSAGE, append),
    evaluation: (organizationId, append) => guarded(admission.admit(organizationId, 'evaluations_run', 1), 'evaluations_run', EVALUATIONS_QUOTA_MESSAGE, append),
  };
}
