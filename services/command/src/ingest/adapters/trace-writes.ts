// The span writes of a request, one place for every route that writes traces (the tracing routes,
// annotations): admission (explicit overload: 503 + Retry-After), normalisation and the project's
// redaction policy before anything is stored, the `traces_ingested` quota, then the append. A
// replacement is all or nothing.
import type { Actor } from '../../actor.ts';
import { invalid, unavailable } from '@llm/errors';
import type { RawSpan } from '@llm/span-model';
import type { SpanAppender, AppendMeta } from './span-appender.ts';
import type { IngestPressure } from './ingest-pressure.ts';
import type { RedactionPolicies } from './redaction-policies.ts';
import type { QuotaGate } from '../../quota/adapters/quota-gate.ts';
import { groupByTrace } from '../domain/span-records.ts';
import { prepareSpans, type PreparedSpans } from '../domain/prepare-spans.ts';
import { redactSpans } from '../domain/redact-spans.ts';

export const appendMetaOf = (req: Actor): AppendMeta => ({
  projectId: req.scope.projectId, organizationId: req.scope.organizationId, requestId: req.id, actorId: req.scope.userId,
});

export interface TraceWriteDeps {
  appender: SpanAppender;
  quota: Pick<QuotaGate, 'ingest'>;
  pressure?: IngestPressure | undefined;
  redaction?: RedactionPolicies | undefined;
}

export class TraceWrites {
  constructor(private readonly deps: TraceWriteDeps) {}

  /** Overload is explicit (503 + Retry-After), as on OTLP: nothing is acknowledged into a growing backlog. */
  private admit(): void {
    const refusal = this.deps.pressure?.check();
    if (refusal) throw unavailable(`ingest_${refusal.reason}`, refusal.message);
  }

  /** Normalised and redacted spans; a policy that cannot be read is a 503 (never stored raw). */
  private async prepare(req: Actor, raw: RawSpan[]): Promise<PreparedSpans> {
    const { redaction } = this.deps;
    const policy = redaction ? await redaction.of(req.scope.projectId).catch((err: unknown) => {
      throw unavailable('redaction_policy_unavailable', 'Failed to read the project\'s redaction policy. Retry later.', err);
    }) : null;
    const p = prepareSpans(raw);
    redactSpans(p.accepted, req.scope.projectId, policy);
    return p;
  }

  async ingest(req: Actor, raw: RawSpan[]): Promise<PreparedSpans> {
    this.admit();
    const p = await this.prepare(req, raw);
    const traces = groupByTrace(p.accepted);
    await this.deps.quota.ingest(req.scope, [...traces.keys()], () => this.deps.appender.upsert(traces, appendMetaOf(req)));
    return p;
  }

  async replace(req: Actor, traceId: string, raw: RawSpan[]): Promise<PreparedSpans> {
    this.admit();
    const p = await this.prepare(req, raw);
    if (p.rejected.length) {
      // A replacement is all or nothing: storing part of it would delete the spans that failed.
      throw invalid('invalid_spans', `Cannot replace trace: ${p.rejected.length} span(s) are invalid: ${p.rejected.map((r) => r.reason).join('; ')}`);
    }
    const records = groupByTrace(p.accepted).get(traceId) ?? [];
    await this.deps.quota.ingest(req.scope, records.length ? [traceId] : [], () => this.deps.appender.replace(traceId, records, appendMetaOf(req)));
    return p;
  }

  async delete(req: Actor, traceId: string): Promise<void> {
    await this.deps.appender.delete(traceId, appendMetaOf(req));
  }
}
