// Consumes platform.events.v1 into the ClickHouse events table. Per batch: decode and map every
// record (undecodable or unstorable → dead-letter topic, never a stall), hand the rows to the shared
// batching writer, and return only when ClickHouse accepted them; the Kafka offsets are committed after that. Re-delivery is
// harmless: rows are idempotent by event (ReplacingMergeTree, reads use FINAL).
import { decodeEvent, type Topics } from '@llm/events';
import { runWithPolicy, sendToDlq, setAsideBreaker, type IncomingBatch, type IncomingRecord, type KafkaClient, type Producer, type Consumer } from '@llm/kafka';
import { BatchingWriter, classifyClickhouseError, type Clickhouse } from '@llm/clickhouse';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import { platformEventRow, type PlatformEventRow } from '../domain/event-row.ts';
import { insertEventRows } from '../adapters/event-table.ts';

const rowsWritten = counter('projector_events_rows_written_total', 'Platform events written to the ClickHouse events table.');
const retried = counter('projector_events_batch_retries_total', 'Platform-event batches retried after a transient failure (ClickHouse away, busy or out of capacity).');
const breakerTrips = counter('projector_events_set_aside_pauses_total', 'Pauses before setting a platform-event record aside after many in a row (a likely systemic fault).');
const deadLettered = counter('projector_events_records_dead_lettered_total', 'Platform-topic records sent to the dead-letter topic (undecodable or unstorable).');

export interface EventsConsumerDeps {
  kafka: KafkaClient;
  producer: Producer;
  ch: Clickhouse;
  topics: Topics;
  log: Logger;
  groupId: string;
  /** Called after each applied batch (replay progress). */
  onApplied?: (batch: IncomingBatch) => void;
}

export interface EventsConsumer {
  consumer: Consumer;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Applies one batch without Kafka (tests). */
  apply(batch: IncomingBatch): Promise<void>;
}

export function createEventsConsumer(deps: EventsConsumerDeps): EventsConsumer {
  const { ch, topics, log } = deps;
  const consumer = deps.kafka.consumer({ groupId: deps.groupId, topics: [topics.platform], fromBeginning: true, concurrency: 3 });
  // The span projector's writer: the partitions' batches share one insert (one part, not one per
  // partition per batch: read events arrive one a request), a refused caller fails alone.
  const writer = new BatchingWriter<PlatformEventRow>({ insert: (rows) => insertEventRows(ch, rows), classify: classifyClickhouseError, log });

  async function deadLetter(rec: IncomingRecord, error: string): Promise<void> {
    log.error({ topic: rec.topic, partition: rec.partition, offset: rec.offset.toString(), error }, 'platform event record dead-lettered');
    await sendToDlq(deps.producer, topics.dlq(topics.platform), rec, error);
    deadLettered();
  }

  async function apply(batch: IncomingBatch): Promise<void> {
    const rows: PlatformEventRow[] = [];
    const refused: Array<{ rec: IncomingRecord; error: string }> = [];
    for (const rec of batch.records) {
      const d = rec.value ? decodeEvent(rec.value) : { ok: false as const, error: 'empty record value' };
      const row = d.ok ? platformEventRow(d.value, rec.timestampMs) : d;
      if (row.ok) rows.push(row.value);
      else refused.push({ rec, error: row.error });
    }
    // Dead letters after the insert: a batch retried while ClickHouse is away does not send them twice.
    await writer.write(rows);
    rowsWritten(rows.length);
    for (const r of refused) await deadLetter(r.rec, r.error);
    deps.onApplied?.(batch);
  }

  // The shared consumer policy with the ClickHouse classifier: ClickHouse away or out of capacity →
  // the batch waits with capped backoff, never skipped; ClickHouse refusing the data → the batch is
  // split until the refused record is alone, and that record is dead-lettered.
  const breaker = setAsideBreaker(20, 30_000, (reason) => {
    breakerTrips();
    log.error({ reason }, 'many platform-event records in a row set aside: likely a systemic fault, not bad records; slowing down');
  });
  const run = runWithPolicy(consumer, {
    apply,
    classify: classifyClickhouseError,
    async setAside(rec, reason, batch) {
      await deadLetter(rec, `could not apply: ${reason}`);
      deps.onApplied?.({ ...batch, records: [rec] });
    },
    onRetry: (err, attempt, batch) => { retried(); log.warn({ err, attempt, partition: batch.partition }, 'platform-event batch failed; retrying'); },
    breaker,
  });

  return {
    consumer,
    apply,
    start: () => run.start(),
    async stop() {
      await run.stop();
      await writer.flush();
    },
  };
}
