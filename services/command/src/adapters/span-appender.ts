// Appends span events to the spans topic, one record per trace, keyed project + trace so a trace's
// events stay ordered. Resolves only after Kafka acknowledged every record (acks=all).
import { encodeEvent, spansKey, type SpanRecord, type Topics } from '@llm/events';
import type { OutgoingRecord, Producer } from '@llm/kafka';
import { unavailable } from '@llm/errors';
import { counter } from '@llm/metrics';

const accepted = counter('spans_accepted_total', 'Spans acknowledged by Kafka on the ingest paths.');

export interface AppendMeta {
  projectId: string;
  organizationId: string;
  requestId: string;
  actorId: string;
}

// Kafka refuses record batches above the topic's max.message.bytes (8 MiB here): a trace's spans
// travel in records of at most ~1 MiB each, in order, on the trace's partition.
const MAX_RECORD_BYTES = 1024 * 1024;

function chunks(spans: SpanRecord[]): SpanRecord[][] {
  const out: SpanRecord[][] = [];
  let cur: SpanRecord[] = [];
  let bytes = 0;
  for (const s of spans) {
    const size = 400 + s.attributes_json.length + s.events_json.length + s.links_json.length + s.references_json.length;
    if (cur.length && bytes + size > MAX_RECORD_BYTES) { out.push(cur); cur = []; bytes = 0; }
    cur.push(s);
    bytes += size;
  }
  if (cur.length) out.push(cur);
  return out;
}

export class SpanAppender {
  constructor(private readonly producer: Producer, private readonly topics: Topics) {}

  async upsert(byTrace: Map<string, SpanRecord[]>, meta: AppendMeta): Promise<void> {
    const records: OutgoingRecord[] = [];
    const timeUs = Date.now() * 1000;
    let n = 0;
    for (const [traceId, spans] of byTrace) {
      n += spans.length;
      for (const part of chunks(spans)) {
        records.push({ key: spansKey(meta.projectId, traceId), value: encodeEvent('tracing.spans.upserted', { trace_id: traceId, spans: part }, this.metaOf(meta, traceId, timeUs)) });
      }
    }
    await this.send(records);
    accepted(n);
  }

  /** The replacement carries the first chunk; further chunks follow as upserts, in order. */
  async replace(traceId: string, spans: SpanRecord[], meta: AppendMeta): Promise<void> {
    const key = spansKey(meta.projectId, traceId);
    const [first = [], ...rest] = chunks(spans);
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

  private async send(records: OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return;
    try {
      await this.producer.send(this.topics.spans, records);
    } catch (err) {
      throw unavailable('queue_unavailable', 'Failed to queue spans for processing. Retry later.', err);
    }
  }
}
