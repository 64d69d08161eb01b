// Kafka refuses record batches above the topic's max.message.bytes (8 MiB here): a trace's spans
// travel in records of at most ~1 MiB each, in order, on the trace's partition.
import type { SpanRecord } from '@llm/events';

const MAX_RECORD_BYTES = 1024 * 1024;

export function chunkSpans(spans: SpanRecord[]): SpanRecord[][] {
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
