// Consumes the accounts topic into Postgres. Each batch is one transaction that also stores the
// consumed positions, so re-delivery after a crash is harmless; events already in `events` are
// skipped. Failures follow the shared consumer policy (@llm/kafka applyWithPolicy with the Postgres
// classifier): Postgres away or busy → the batch waits and is retried, never skipped; an event the
// store refuses (NUL text, a value out of range) → recorded as rejected with code `unstorable`
// (the waiting command answers 422) and dead-lettered; undecodable records → dead-lettered.
// Accepted facts that are platform events (platform-facts.ts) are written to platform_outbox in the
// same transaction; the outbox relay publishes them after the commit.
import { decodeEvent, type DecodedEvent, type Topics } from '@llm/events';
import { runWithPolicy, sendToDlq, setAsideBreaker, type IncomingBatch, type IncomingRecord, type KafkaClient, type Producer, type Consumer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { classifyPostgresError, withTransaction, type Pool, type PoolClient } from '@llm/postgres';
import { failureReason } from '@llm/errors';
import { counter } from '@llm/metrics';
import { offsetStore } from '@llm/pg-consumer';
import { storableJson, storableText } from './storable.ts';
import { eventTime, isUuid, reject, type Rejection } from '@llm/account-model';
import { applyEvent } from './apply-event.ts';
import { recordPlatformFacts } from './platform-facts.ts';

const rejected = counter('projector_accounts_events_rejected_total', 'Accounts events recorded as rejected (a rule refused them, or the store could not hold their data).');
const deadLettered = counter('projector_accounts_records_dead_lettered_total', 'Accounts-topic records sent to the dead-letter topic (undecodable or unstorable).');
const breakerTrips = counter('projector_accounts_set_aside_pauses_total', 'Pauses before setting an accounts record aside after many in a row (a likely systemic fault).');
const retried = counter('projector_accounts_batch_retries_total', 'Accounts batches retried after a transient failure (Postgres away or busy).');

export interface AccountsConsumerDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  consumerName: string;
  /** Write the platform events of accepted facts to platform_outbox (the live consumer only: a
   * replay under another name must not emit them again). */
  platformFacts?: boolean;
  /** Called after a batch that wrote platform events committed (the outbox relay publishes them). */
  onFactsCommitted?: () => void;
}

export function createAccountsConsumer(deps: AccountsConsumerDeps): { consumer: Consumer; start(): Promise<void>; stop(): Promise<void> } {
  const { pool, topics, log, consumerName } = deps;
  const offsets = offsetStore(consumerName);
  const consumer = deps.kafka.consumer({
    groupId: consumerName,
    topics: [topics.accounts],
    fromBeginning: true,
    concurrency: 3,
    startOffsets: (topic, partition) => offsets.startOffset(pool, topic, partition),
  });

  async function applyBatch(batch: IncomingBatch): Promise<void> {
    let facts = 0;
    await withTransaction(pool, async (c) => {
      facts = 0;
      const setAside: Array<{ rec: IncomingRecord; error: string }> = [];
      for (const rec of batch.records) {
        const decoded = rec.value ? decodeEvent(rec.value) : { ok: false as const, error: 'empty record value' };
        if (!decoded.ok) { setAside.push({ rec, error: decoded.error }); continue; }
        const e = decoded.value;
        if (!isUuid(e.eventId)) { setAside.push({ rec, error: `event id '${storableText(e.eventId)}' is not a UUID` }); continue; }
        // An event is applied once. The exception: an event the store refused (`unstorable`) that
        // comes back under another position — re-driven after a fix — is tried again.
        const seen = await c.query<{ rejection_code: string | null; partition: number; offset: string }>(
          'SELECT rejection_code, partition, "offset" FROM events WHERE event_id = $1', [e.eventId]);
        const prior = seen.rows[0];
        if (prior && !(prior.rejection_code === 'unstorable' && (prior.partition !== rec.partition || prior.offset !== rec.offset.toString()))) continue;
        if (prior) await c.query('DELETE FROM events WHERE event_id = $1', [e.eventId]);
        // Each event in its own savepoint: an event the store refuses is recorded as rejected and
        // the batch goes on; a transient failure aborts the whole batch, which is retried.
        await c.query('SAVEPOINT ev');
        try {
          const outcome = await applyEvent(c, e);
          if (outcome.status === 'applied' && deps.platformFacts) facts += await recordPlatformFacts(c, rec, e);
          await recordEvent(c, rec, e, outcome);
          if (outcome.status === 'rejected') rejected();
          await c.query('RELEASE SAVEPOINT ev');
        } catch (err) {
          await c.query('ROLLBACK TO SAVEPOINT ev');
          if (classifyPostgresError(err) === 'transient') throw err;
          const reason = `could not apply: ${failureReason(err)}`;
          await recordEvent(c, rec, e, reject('unstorable', reason));
          rejected();
          setAside.push({ rec, error: reason });
        }
      }
      await storeOffset(c, batch.topic, batch.partition, batch.records[batch.records.length - 1]!.offset + 1n);
      // Dead letters go out before the commit: a retry after a failed commit may send one twice,
      // but none is lost.
      for (const d of setAside) await deadLetter(d.rec, d.error);
    });
    if (facts > 0) deps.onFactsCommitted?.();
  }

  async function recordEvent(c: PoolClient, rec: IncomingRecord, e: DecodedEvent, outcome: { status: 'applied' } | Rejection): Promise<void> {
    const r = outcome.status === 'rejected' ? outcome : undefined;
    await c.query(
      `INSERT INTO events (event_id, type, aggregate_id, project_id, organization_id, occurred_at, request_id, topic, partition, "offset", status, rejection, rejection_code, rejection_details, payload)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)`,
      [e.eventId, storableText(e.type), storableText(e.aggregateId || rec.key || ''), storableText(e.projectId), storableText(e.organizationId),
        eventTime(e), storableText(e.requestId), rec.topic, rec.partition, rec.offset.toString(), outcome.status,
        r ? storableText(r.message) : null, r ? r.code : null, r?.details ? storableJson(r.details) : null,
        storableJson(redact(e.payload))],
    );
  }

  const storeOffset = (c: PoolClient, topic: string, partition: number, next: bigint): Promise<void> => offsets.storeOffset(c, topic, partition, next);

  async function deadLetter(rec: IncomingRecord, error: string): Promise<void> {
    await sendToDlq(deps.producer, topics.dlq(topics.accounts), rec, error);
    deadLettered();
    log.error({ topic: rec.topic, partition: rec.partition, offset: rec.offset.toString(), error }, 'accounts record dead-lettered');
  }

  // The last resort of the shared policy: a record whose batch keeps failing deterministically even
  // alone (e.g. its event row cannot be written at all) is dead-lettered and stepped over.
  async function setAsideRecord(rec: IncomingRecord, reason: string): Promise<void> {
    await withTransaction(pool, async (c) => {
      await storeOffset(c, rec.topic, rec.partition, rec.offset + 1n);
      // The waiting command learns the outcome (422) instead of timing out, when the event decodes.
      const decoded = rec.value ? decodeEvent(rec.value) : undefined;
      if (decoded?.ok && isUuid(decoded.value.eventId)) {
        await c.query('SAVEPOINT aside');
        try {
          await c.query('DELETE FROM events WHERE event_id = $1', [decoded.value.eventId]);
          await recordEvent(c, rec, decoded.value, reject('unstorable', `could not apply: ${reason}`));
          await c.query('RELEASE SAVEPOINT aside');
        } catch {
          await c.query('ROLLBACK TO SAVEPOINT aside');
        }
      }
      await deadLetter(rec, `could not apply: ${reason}`);
    });
  }

  const breaker = setAsideBreaker(20, 30_000, (reason) => {
    breakerTrips();
    log.error({ reason }, 'many accounts records in a row set aside: likely a systemic fault, not bad records; slowing down');
  });

  const run = runWithPolicy(consumer, {
    apply: applyBatch,
    classify: classifyPostgresError,
    setAside: setAsideRecord,
    onRetry: (err, attempt, batch) => { retried(); log.warn({ err, attempt, partition: batch.partition }, 'accounts batch failed; retrying'); },
    breaker,
  });
  return { consumer, start: () => run.start(), stop: () => run.stop() };
}


// The event log keeps payloads for queries, but never secret hashes or sealed secrets.
const REDACTED = new Set(['secret_hash', 'client_secret_sealed', 'sealed_data']);
function redact(p: unknown): unknown {
  if (!p || typeof p !== 'object') return p;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p as Record<string, unknown>)) {
    out[k] = REDACTED.has(k) ? '[redacted]' : redact(v);
  }
  return Array.isArray(p) ? Object.values(out) : out;
}
