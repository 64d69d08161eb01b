// The shape the Postgres-backed consumers share (the accounts projector of accounts.events.v1, the
// webhook fan-out of platform.events.v1, the deliveries projector of webhooks.deliveries.v1, the
// usage meters of tracing.spans.v1): each
// partition batch is one Postgres transaction that applies the decoded records (and then `flush`,
// for what a consumer sums over the batch) and stores the consumed position, so a re-delivered
// batch is harmless. Failures
// follow the shared consumer policy (@llm/kafka applyWithPolicy with the Postgres classifier):
// Postgres away or busy → the batch waits and is retried, never skipped; a record that cannot be
// decoded or applied even alone → dead-lettered and stepped over.
import { decodeEvent, type DecodedEvent, type Topics } from '@llm/events';
import type { Result } from '@llm/errors';
import { runWithPolicy, sendToDlq, setAsideBreaker, type IncomingBatch, type IncomingRecord, type KafkaClient, type Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import { classifyPostgresError, withTransaction, type Pool, type PoolClient } from '@llm/postgres';
import { offsetStore } from './offsets.ts';

/** What applying one record decided: done, or set aside (dead-lettered) with a reason. */
export type RecordVerdict = { ok: true } | { ok: false; error: string };

export interface LogConsumerDeps<E = DecodedEvent> {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  /** Consumer group and offsets name. */
  consumerName: string;
  topic: string;
  /** Metric names start with this (e.g. `webhook_fanout`). */
  metricsPrefix: string;
  /** Decodes a record's value (default: the whole event, envelope and payload). */
  decode?(value: Buffer): Result<E>;
  /** Applies one decoded record inside the batch's transaction (or see `sink`). */
  apply?(c: PoolClient, e: E, rec: IncomingRecord): Promise<RecordVerdict>;
  /** For consumers that sum over a batch: a fresh sink per batch (batches of several partitions run
   * at once), fed every decoded record, then written in the batch's transaction. */
  sink?(): BatchSink<E>;
  /** Called after a batch committed (e.g. to wake the sender). */
  afterCommit?(): void;
  /** Runs in the transaction that steps over a record set aside (before it is dead-lettered), e.g.
   * to record its outcome for a waiting command. */
  onSetAside?(c: PoolClient, rec: IncomingRecord, reason: string): Promise<void>;
  concurrency?: number;
}

export interface BatchSink<E> {
  add(e: E, rec: IncomingRecord): RecordVerdict;
  write(c: PoolClient): Promise<void>;
}

export interface LogConsumer { start(): Promise<void>; stop(): Promise<void>; ready(): Promise<void> }

export function createLogConsumer<E = DecodedEvent>(deps: LogConsumerDeps<E>): LogConsumer {
  const decode = deps.decode ?? (decodeEvent as unknown as (value: Buffer) => Result<E>);
  const { pool, log, consumerName, topic } = deps;
  const offsets = offsetStore(consumerName);
  const deadLettered = counter(`${deps.metricsPrefix}_records_dead_lettered_total`, `Records dead-lettered by ${consumerName} (undecodable or unappliable).`);
  const retried = counter(`${deps.metricsPrefix}_batch_retries_total`, `Batches of ${consumerName} retried after a transient failure (Postgres away or busy).`);
  const breakerTrips = counter(`${deps.metricsPrefix}_set_aside_pauses_total`, `Pauses of ${consumerName} before setting a record aside after many in a row (a likely systemic fault).`);
  const dlq = deps.topics.dlq(topic);

  const consumer = deps.kafka.consumer({
    groupId: consumerName,
    topics: [topic],
    fromBeginning: true,
    concurrency: deps.concurrency ?? 3,
    startOffsets: (t, p) => offsets.startOffset(pool, t, p),
  });

  async function deadLetter(rec: IncomingRecord, error: string): Promise<void> {
    await sendToDlq(deps.producer, dlq, rec, error);
    deadLettered();
    log.error({ topic: rec.topic, partition: rec.partition, offset: rec.offset.toString(), error }, 'record dead-lettered');
  }

  async function applyBatch(batch: IncomingBatch): Promise<void> {
    await withTransaction(pool, async (c) => {
      const sink = deps.sink?.();
      const setAside: Array<{ rec: IncomingRecord; error: string }> = [];
      for (const rec of batch.records) {
        const decoded = rec.value ? decode(rec.value) : { ok: false as const, error: 'empty record value' };
        if (!decoded.ok) { setAside.push({ rec, error: decoded.error }); continue; }
        const verdict = sink ? sink.add(decoded.value, rec) : await deps.apply!(c, decoded.value, rec);
        if (!verdict.ok) setAside.push({ rec, error: verdict.error });
      }
      await sink?.write(c);
      await offsets.storeOffset(c, batch.topic, batch.partition, batch.records[batch.records.length - 1]!.offset + 1n);
      // Dead letters go out before the commit: a retry after a failed commit may send one twice, but none is lost.
      for (const d of setAside) await deadLetter(d.rec, d.error);
    });
    deps.afterCommit?.();
  }

  // The last resort of the shared policy: a record whose batch keeps failing deterministically even alone.
  async function setAsideRecord(rec: IncomingRecord, reason: string): Promise<void> {
    await withTransaction(pool, async (c) => {
      await offsets.storeOffset(c, rec.topic, rec.partition, rec.offset + 1n);
      await deps.onSetAside?.(c, rec, reason);
      await deadLetter(rec, `could not apply: ${reason}`);
    });
  }

  const breaker = setAsideBreaker(20, 30_000, (reason) => {
    breakerTrips();
    log.error({ reason }, 'many records in a row set aside: likely a systemic fault, not bad records; slowing down');
  });

  const run = runWithPolicy(consumer, {
    apply: applyBatch,
    classify: classifyPostgresError,
    setAside: setAsideRecord,
    onRetry: (err, attempt, batch) => { retried(); log.warn({ err, attempt, partition: batch.partition }, 'batch failed; retrying'); },
    breaker,
  });
  return { start: () => run.start(), stop: () => run.stop(), ready: () => consumer.ready() };
}
