// Appends span events to the spans topic, one record per trace, keyed project + trace so a trace's
// events stay ordered. Resolves only after Kafka acknowledged every record (acks=all).
import { encodeEvent, spansKey, type SpanRecord, type Topics } from '@llm/events';
import { RecordTooLargeError, type OutgoingRecord, type Producer } from '@llm/kafka';
import { AppError, unavailable } from '@llm/errors';
import { chunkSpans } from '../domain/chunk-spans.ts';
import { counter } from '@llm/metrics';

const accepted = counter('spans_accepted_total', 'Spans acknowledged by Kafka on the ingest paths.');

export interface AppendMeta {
  projectId: string;
  organizationId: string;
  requestId: string;
  actorId: string;
}

export class SpanAppender {
  constructor(private readonly producer: Producer, private readonly topics: Topics) {}

  async upsert(byTrace: Map<string, SpanRecord[]>, meta: AppendMeta): Promise<void> {
    const records: OutgoingRecord[] = [];
    const timeUs = Date.now() * 1000;
    let n = 0;
    for (const [traceId, spans] of byTrace) {
      n += spans.length;
      for (const part of chunkSpans(spans)) {
        records.push({ key: spansKey(meta.projectId, traceId), value: encodeEvent('tracing.spans.upserted', { trace_id: traceId, spans: part }, this.metaOf(meta, traceId, timeUs)) });
      }
    }
    await this.send(records);
    accepted(n);
  }

  /** The replacement carries the first chunk; further chunks follow as upserts, in order. */
  async replace(traceId: string, spans: SpanRecord[], meta: AppendMeta): Promise<void> {
    const key = spansKey(meta.projectId, traceId);
    const [first = [], ...rest] = chunkSpans(spans);
    await this.send([
      { key, value: encodeEvent('tracing.trace.replaced', { trace_id: traceId, spans: first }, this.metaOf(meta, traceId)) },
      ...rest.map((part) => ({ key, value: encodeEvent('tracing.spans.upserted', { trace_id: traceId, spans: part }, this.metaOf(meta, traceId)) })),
    ]);
  }

  async delete(traceId: string, meta: AppendMeta): Promise<void> {
    await this.send([{ key: spansKey(meta.projectId, traceId), value: encodeEvent('tracing.trace.deleted', { trace_id: traceId }, this.metaOf(meta, traceId)) }]);
  }

  private metaOf(m: AppendMeta, traceId: string, timeUs = Date.now() * 1000) {
    return { projectId: m.projectId, organizationId: m.organizationId, requestId: m.requestId, actorId: m.actorId, aggregateId: traceId, timeUs };
  }

  /** Appends records already encoded elsewhere (the OTLP worker pool). */
  async appendEncoded(records: OutgoingRecord[], spans: number): Promise<void> {
    await this.send(records);
    accepted(spans);
  }

  private async send(records: OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return;
    try {
      await this.producer.send(this.topics.spans, records);
    } catch (err) {
      if (err instanceof RecordTooLargeError) {
        // Refused before anything of this request was queued: the client must split or shrink.
        throw new AppError({ code: 'span_too_large', kind: 'too_large', message: `A span is too large to queue: its record would be ${err.bytes} bytes, above the ${err.limit} byte limit.`, cause: err });
      }
      throw unavailable('queue_unavailable', 'Failed to queue spans for processing. Retry later.', err);
    }
  }
}
