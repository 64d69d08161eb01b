// One OTLP trace export after authentication and throttling, whatever carried it (OTLP/HTTP on the
// API's /otlp/v1/traces, OTLP/HTTP on the OTLP port, OTLP/gRPC): overload admission before the body
// is read, the body limit, the decode worker, the quota and the append of the same Kafka records.
// Its answer is a value each transport renders (otlp-outcome.ts maps it to HTTP and gRPC statuses).
import { AppError } from '@llm/errors';
import type { Logger } from '@llm/logging';
import { labelledCounter } from '@llm/metrics';
import type { Scope } from '@llm/auth';
import type { OtlpEncoding } from '../domain/prepare-otlp.ts';
import type { OtlpOutcome, OtlpRefusal } from '../domain/otlp-outcome.ts';
import type { SpanAppender } from './span-appender.ts';
import type { OtlpWorkerPool } from './otlp-worker-pool.ts';
import { OTLP_QUOTA_MESSAGE, QuotaExceededError, type QuotaGate } from '../../quota/adapters/quota-gate.ts';
import type { IngestPressure } from './ingest-pressure.ts';
import type { RedactionPolicies } from './redaction-policies.ts';

// Spans of decoded requests that were not queued (requests refused unread under overload are
// counted per request: ingest_requests_refused_{lag,backlog}_total).
const refusedSpans = labelledCounter('ingest_spans_refused_total', 'Spans of decoded OTLP requests that were not queued, per reason (invalid, over_quota, too_large, unavailable).', ['reason']);

export interface OtlpExportCall {
  scope: Scope;
  requestId: string;
  log: Logger;
  encoding: OtlpEncoding;
  /** The size the client declared before sending the body (HTTP Content-Length), if any. */
  declaredBytes: number | undefined;
  /**
   * The body, bounded and inflated. Rejects with an AppError of kind too_large, invalid or
   * unsupported_media_type when it cannot be read.
   */
  readBody(): Promise<Buffer>;
}

const refused = (refusal: OtlpRefusal, message: string, extra: Partial<Extract<OtlpOutcome, { ok: false }>> = {}): OtlpOutcome => ({ ok: false, refusal, message, ...extra });

export class OtlpIngest {
  constructor(
    private readonly appender: SpanAppender,
    private readonly pool: OtlpWorkerPool,
    private readonly quota: QuotaGate,
    private readonly pressure: IngestPressure,
    readonly maxBatchBytes: number,
    /** Projects' redaction policies; absent = none is applied. */
    private readonly redaction?: RedactionPolicies,
  ) {}

  async export(call: OtlpExportCall): Promise<OtlpOutcome> {
    // Overload: refused before the body is read or decoded, with the Status exporters retry on.
    const refusal = this.pressure.check(call.declaredBytes !== undefined && call.declaredBytes > 0 ? call.declaredBytes : undefined);
    if (refusal) return refused('unavailable', refusal.message, { retryAfterSeconds: refusal.retryAfterSeconds });
    let body: Buffer;
    try {
      body = await call.readBody();
    } catch (err) {
      if (err instanceof AppError) {
        if (err.kind === 'too_large') return refused('too_large', `OTLP batch size exceeds ${Math.round(this.maxBatchBytes / 1e6)}MB limit.`, { unread: true });
        if (err.kind === 'unsupported_media_type') return refused('unsupported_media_type', err.message);
        if (err.kind === 'invalid') return refused('invalid', err.message);
      }
      throw err;
    }
    const release = this.pressure.hold(body.length);
    try {
      return await this.prepareAndAppend(call, body);
    } finally {
      release();
    }
  }

  private async prepareAndAppend(call: OtlpExportCall, body: Buffer): Promise<OtlpOutcome> {
    let redaction;
    try {
      redaction = this.redaction ? await this.redaction.of(call.scope.projectId) : null;
    } catch (err) {
      // Never stored raw for want of the policy: the client retries.
      call.log.error({ err }, 'reading the redaction policy failed');
      return refused('unavailable', 'Failed to read the project\'s redaction policy. Retry later.', { retryAfterSeconds: 1 });
    }
    const meta = { projectId: call.scope.projectId, organizationId: call.scope.organizationId, requestId: call.requestId, actorId: call.scope.userId, ...(redaction && { redaction }) };
    let prepared;
    try {
      prepared = await this.pool.run(body, meta, call.encoding);
    } catch (err) {
      call.log.error({ err }, 'preparing spans failed');
      return refused('unavailable', 'Failed to prepare spans for processing. Retry later.', { retryAfterSeconds: 1 });
    }
    if (!prepared.ok) {
      const what = call.encoding === 'json' ? 'OTLP/JSON ExportTraceServiceRequest' : 'OTLP ExportTraceServiceRequest';
      return refused('invalid', `Invalid request body: not a valid ${what} (${prepared.reason}).`);
    }
    const { accepted, rejected: rejectedCount, reasons } = prepared;
    if (rejectedCount > 0) refusedSpans.inc({ reason: 'invalid' }, rejectedCount);
    if (accepted === 0 && rejectedCount > 0) {
      // 400, not 500: a 5xx makes exporters retry a poison batch forever.
      return refused('invalid', `All ${rejectedCount} spans were rejected: ${reasons}`);
    }
    try {
      const records = prepared.records.map((r) => ({ key: r.key, value: Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength) }));
      await this.quota.ingest(call.scope, prepared.traceIds, () => this.appender.appendEncoded(records, accepted));
    } catch (err) {
      if (err instanceof QuotaExceededError) {
        refusedSpans.inc({ reason: 'over_quota' }, accepted);
        // Reference §2.3: a refusal exporters do not retry; nothing of the batch was appended.
        return refused('over_quota', OTLP_QUOTA_MESSAGE);
      }
      if (err instanceof AppError && err.kind === 'too_large') {
        refusedSpans.inc({ reason: 'too_large' }, accepted);
        return refused('too_large', err.message);
      }
      call.log.error({ err }, 'queueing spans failed');
      refusedSpans.inc({ reason: 'unavailable' }, accepted);
      return refused('unavailable', 'Failed to queue spans for processing. Retry later.', { retryAfterSeconds: 1 });
    }
    return { ok: true, rejectedSpans: rejectedCount, errorMessage: rejectedCount > 0 ? reasons : '' };
  }
}
