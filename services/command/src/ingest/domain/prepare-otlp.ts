// The CPU-heavy part of OTLP ingest as one pure step: protobuf (or OTLP/JSON) body → adapted, normalised spans →
// one encoded `tracing.spans.upserted` record per trace (chunked under Kafka's record limit).
// Pure so it can run on the request thread or in a worker thread unchanged.
import { decodeOtlpJsonTraces, decodeOtlpTraces } from '@llm/otlp';
import { encodeEvent, spansKey } from '@llm/events';
import { groupByTrace } from './span-records.ts';
import { prepareSpans, rejectionSummary } from './prepare-spans.ts';
import { chunkSpans } from './chunk-spans.ts';
import { redactSpans } from './redact-spans.ts';
import type { VersionedPolicy } from '@llm/redaction';

export interface OtlpScopeMeta {
  projectId: string;
  organizationId: string;
  requestId: string;
  actorId: string;
  /** The project's redaction policy, applied before the spans become records; absent = none. */
  redaction?: VersionedPolicy;
}

/** How the body is encoded: binary protobuf, or the OTLP/JSON mapping (only the OTLP port takes JSON). */
export type OtlpEncoding = 'protobuf' | 'json';

export type PreparedOtlp =
  | { ok: false; reason: string }
  | { ok: true; records: Array<{ key: string; value: Uint8Array }>; accepted: number; rejected: number; reasons: string; /** The traces of the accepted spans (each once): what the quota admits. */ traceIds: string[] };

export function prepareOtlp(body: Uint8Array, meta: OtlpScopeMeta, encoding: OtlpEncoding = 'protobuf'): PreparedOtlp {
  const decoded = encoding === 'json' ? decodeOtlpJsonTraces(body) : decodeOtlpTraces(body);
  if (!decoded.ok) return { ok: false, reason: decoded.reason };
  const p = prepareSpans(decoded.spans);
  redactSpans(p.accepted, meta.projectId, meta.redaction);
  const rejected = decoded.rejected + p.rejected.length;
  const reasons = [...decoded.rejectReasons.slice(0, 5), p.rejected.length ? rejectionSummary(p.rejected) : ''].filter(Boolean).join('; ');
  const records: Array<{ key: string; value: Uint8Array }> = [];
  const timeUs = Date.now() * 1000;
  const traces = groupByTrace(p.accepted);
  for (const [traceId, spans] of traces) {
    for (const part of chunkSpans(spans)) {
      records.push({
        key: spansKey(meta.projectId, traceId),
        value: encodeEvent('tracing.spans.upserted', { trace_id: traceId, spans: part }, {
          projectId: meta.projectId, organizationId: meta.organizationId, requestId: meta.requestId, actorId: meta.actorId, aggregateId: traceId, timeUs,
        }),
      });
    }
  }
  return { ok: true, records, accepted: p.accepted.length, rejected, reasons, traceIds: [...traces.keys()] };
}
