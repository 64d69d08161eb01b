// Consumes the spans topic into ClickHouse. Per batch: decode (undecodable → dead-letter topic at
// once), load the live rows of traces not in the cache (one query per project), apply each event in
// partition order, hand the rows to the batching writer, and return only when ClickHouse accepted
// them; the Kafka offsets are committed after that.
import { decodeEvent, type DecodedEvent, type Topics } from '@llm/events';
import { applyWithPolicy, sendToDlq, setAsideBreaker, type IncomingBatch, type IncomingRecord, type KafkaClient, type Producer, type Consumer } from '@llm/kafka';
import { BatchingWriter, classifyClickhouseError, type Clickhouse } from '@llm/clickhouse';
import type { Logger } from '@llm/logging';
import { applyTraceEvent, type TraceRows } from '../domain/trace-state.ts';
import type { SpanRow } from '../domain/span-row.ts';
import { loadTraces } from '../adapters/span-store.ts';
import { insertSpanRows } from '../adapters/span-table-writer.ts';
import type { SpanTables } from '@llm/span-table';
import { TraceCache } from './trace-cache.ts';
import { counter } from '@llm/metrics';

const rowsWritten = counter('projector_span_rows_written_total', 'Span rows (including re-rolled ancestors and tombstones) written to ClickHouse.');
const retried = counter('projector_span_batch_retries_total', 'Span batches retried after a transient failure (ClickHouse away, busy or out of capacity).');
const breakerTrips = counter('projector_span_set_aside_pauses_total', 'Pauses before setting a span record aside after many in a row (a likely systemic fault).');
const deadLettered = counter('projector_span_records_dead_lettered_total', 'Spans-topic records sent to the dead-letter topic.');

type TraceEvent = DecodedEvent<'tracing.spans.upserted'> | DecodedEvent<'tracing.trace.replaced'> | DecodedEvent<'tracing.trace.deleted'>;

export interface SpansConsumerDeps {
  kafka: KafkaClient;
  producer: Producer;
  ch: Clickhouse;
  topics: Topics;
  log: Logger;
  groupId: string;
  tables: SpanTables;
  cacheSpans?: number;
  cacheBytes?: number;
  /** Explicit start positions (replay catch-up); otherwise the group's committed offsets. */
  startOffsets?: (topic: string, partition: number) => Promise<bigint | undefined>;
  /** Called after each applied batch (replay progress, lag metrics). */
  onApplied?: (batch: IncomingBatch) => void;
}

export interface SpansConsumer {
  consumer: Consumer;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Applies one batch without Kafka (used by replay's catch-up and by tests). */
  apply(batch: IncomingBatch): Promise<void>;
}

export function createSpansConsumer(deps: SpansConsumerDeps): SpansConsumer {
  const { ch, topics, log, tables } = deps;
  const writer = new BatchingWriter<SpanRow>({ insert: (rows) => insertSpanRows(ch, tables, rows), classify: classifyClickhouseError, log });
  const cache = new TraceCache({ maxSpans: deps.cacheSpans, maxBytes: deps.cacheBytes });
  const consumer = deps.kafka.consumer({
    groupId: deps.groupId, topics: [topics.spans], fromBeginning: true, concurrency: 6,
    ...(deps.startOffsets ? { startOffsets: deps.startOffsets } : {}),
  });

  async function deadLetter(rec: IncomingRecord, error: string): Promise<void> {
    log.error({ topic: rec.topic, partition: rec.partition, offset: rec.offset.toString(), error }, 'span record dead-lettered');
    await sendToDlq(deps.producer, topics.dlq(topics.spans), rec, error);
    deadLettered();
  }

  // A partition's traces are cached only while this consumer sees its offsets without gaps. A gap
  // means another consumer (after a rebalance) applied records in between: the cache may be stale.
  const nextOffset = new Map<number, bigint>();

  async function apply(batch: IncomingBatch): Promise<void> {
    await applyRecords(batch);
    // Progress counts every record, dead-lettered ones included (replay waits on it).
    deps.onApplied?.(batch);
  }

  async function applyRecords(batch: IncomingBatch): Promise<void> {
    const first = batch.records[0]?.offset;
    const expected = nextOffset.get(batch.partition);
    if (first !== undefined && expected !== undefined && first !== expected) cache.clear();
    const events: Array<{ e: TraceEvent; offset: bigint; key: string }> = [];
    // Records that can never apply are dead-lettered once the rest of the batch is written, so a
    // batch retried while ClickHouse is away does not dead-letter them again on every attempt.
    const undecodable: Array<{ rec: IncomingRecord; error: string }> = [];
    for (const rec of batch.records) {
      const d = rec.value ? decodeEvent(rec.value) : { ok: false as const, error: 'empty record value' };
      if (!d.ok) { undecodable.push({ rec, error: d.error }); continue; }
      const e = d.value;
      if (e.type !== 'tracing.spans.upserted' && e.type !== 'tracing.trace.replaced' && e.type !== 'tracing.trace.deleted') {
        undecodable.push({ rec, error: `event type '${e.type}' does not belong on the spans topic` });
        continue;
      }
      if (!e.projectId) { undecodable.push({ rec, error: 'event has no project_id' }); continue; }
      const te = e as TraceEvent;
      events.push({ e: te, offset: rec.offset, key: `${te.projectId}:${te.payload.trace_id}` });
    }
    if (events.length === 0) { for (const u of undecodable) await deadLetter(u.rec, u.error); markConsumed(batch); return; }

    // Load the traces this batch touches that the cache does not hold, one query per project.
    const states = new Map<string, TraceRows>();
    const missing = new Map<string, Set<string>>();
    for (const { e, key } of events) {
      if (states.has(key)) continue;
      const cached = cache.get(key);
      if (cached) { states.set(key, cached); continue; }
      states.set(key, new Map());
      let s = missing.get(e.projectId);
      if (!s) missing.set(e.projectId, (s = new Set()));
      s.add(e.payload.trace_id);
    }
    for (const [projectId, traceIds] of missing) {
      for (const row of await loadTraces(ch, tables, projectId, [...traceIds])) {
        states.get(`${projectId}:${row.trace_id}`)!.set(row.span_id, row);
      }
    }

    const writes: SpanRow[] = [];
    for (const { e, offset, key } of events) {
      const t = applyTraceEvent(states.get(key)!, e, offset);
      states.set(key, t.next);
      for (const w of t.writes) writes.push(w);
    }
    const seq = writer.writeSeq + 1;
    for (const [key, rows] of states) cache.set(key, rows, seq);
    try {
      await writer.write(writes);
    } catch (err) {
      // The cache may now hold rows ClickHouse never got: forget it, the retry reloads.
      cache.clear();
      throw err;
    }
    rowsWritten(writes.length);
    cache.evict(writer.flushedSeq);
    for (const u of undecodable) await deadLetter(u.rec, u.error);
    markConsumed(batch);
  }

  function markConsumed(batch: IncomingBatch): void {
    const last = batch.records[batch.records.length - 1];
    if (last) nextOffset.set(batch.partition, last.offset + 1n);
  }

  // The shared consumer policy (@llm/kafka applyWithPolicy) with the ClickHouse classifier:
  // ClickHouse away or out of capacity (too many parts, memory, disk, timeouts) → the batch waits
  // with capped backoff and is never skipped, however long it takes; ClickHouse refusing the data
  // itself → the batch is split until the refused record is alone, and that record goes to the
  // dead-letter topic. Nothing is committed until the batch is written.
  function applyWithRetry(batch: IncomingBatch): Promise<void> {
    return applyWithPolicy(batch, {
      apply,
      classify: classifyClickhouseError,
      async setAside(rec, reason) {
        await deadLetter(rec, `could not apply: ${reason}`);
        const single: IncomingBatch = { ...batch, records: [rec] };
        markConsumed(single);
        deps.onApplied?.(single);
      },
      stopping: () => stopping,
      onRetry: (err, attempt) => { retried(); log.warn({ err, attempt, partition: batch.partition }, 'span batch failed; retrying'); },
      breaker,
    });
  }

  let stopping = false;
  const breaker = setAsideBreaker(20, 30_000, (reason) => {
    breakerTrips();
    log.error({ reason }, 'many span records in a row set aside: likely a systemic fault, not bad records; slowing down');
  });

  return {
    consumer,
    apply,
    start: () => consumer.start(applyWithRetry),
    async stop() {
      stopping = true;
      await consumer.stop();
      await writer.flush();
    },
  };
}
