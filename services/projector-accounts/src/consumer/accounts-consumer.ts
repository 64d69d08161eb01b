// Consumes the accounts topic into Postgres. Each batch is one transaction that also stores the
// consumed positions, so re-delivery after a crash is harmless; events already in `events` are
// skipped. Failures follow the shared consumer policy (@llm/kafka applyWithPolicy with the Postgres
// classifier): Postgres away or busy → the batch waits and is retried, never skipped; an event the
// store refuses (NUL text, a value out of range) → recorded as rejected with code `unstorable`
// (the waiting command answers 422) and dead-lettered; undecodable records → dead-lettered.
// Accepted facts that are platform events (platform-facts.ts) are written to platform_outbox in the
// same transaction; the outbox relay publishes them after the commit.
import { decodeEvent, type DecodedEvent, type Topics } from '@llm/events';
import type { IncomingRecord, KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { classifyPostgresError, type Pool, type PoolClient } from '@llm/postgres';
import { failureReason } from '@llm/errors';
import { counter } from '@llm/metrics';
import { createLogConsumer, type LogConsumer, type RecordVerdict } from '@llm/pg-consumer';
import { storableJson, storableText } from './storable.ts';
import { eventTime, isUuid, reject, type Rejection } from '@llm/account-model';
import { applyEvent } from './apply-event.ts';
import { recordPlatformFacts } from './platform-facts.ts';

const rejected = counter('projector_accounts_events_rejected_total', 'Accounts events recorded as rejected (a rule refused them, or the store could not hold their data).');

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
  /** Called after a batch committed (the outbox relay publishes the platform events it wrote). */
  onFactsCommitted?: () => void;
}

/** The accounts projector on the shared consumer loop (@llm/pg-consumer): one transaction per partition batch. */
export function createAccountsConsumer(deps: AccountsConsumerDeps): LogConsumer {

  /** One accounts event: decided and projected (applyEvent), recorded with its verdict, once. */
  async function apply(c: PoolClient, e: DecodedEvent, rec: IncomingRecord): Promise<RecordVerdict> {
    if (!isUuid(e.eventId)) return { ok: false, error: `event id '${storableText(e.eventId)}' is not a UUID` };
    // An event is applied once. The exception: an event the store refused (`unstorable`) that
    // comes back under another position — re-driven after a fix — is tried again.
    const seen = await c.query<{ rejection_code: string | null; partition: number; offset: string }>(
      'SELECT rejection_code, partition, "offset" FROM events WHERE event_id = $1', [e.eventId]);
    const prior = seen.rows[0];
    if (prior && !(prior.rejection_code === 'unstorable' && (prior.partition !== rec.partition || prior.offset !== rec.offset.toString()))) return { ok: true };
    if (prior) await c.query('DELETE FROM events WHERE event_id = $1', [e.eventId]);
    // Each event in its own savepoint: an event the store refuses is recorded as rejected and
    // the batch goes on; a transient failure aborts the whole batch, which is retried.
    await c.query('SAVEPOINT ev');
    try {
      const outcome = await applyEvent(c, e);
      if (outcome.status === 'applied' && deps.platformFacts) await recordPlatformFacts(c, rec, e);
      await recordEvent(c, rec, e, outcome);
      if (outcome.status === 'rejected') rejected();
      await c.query('RELEASE SAVEPOINT ev');
      return { ok: true };
    } catch (err) {
      await c.query('ROLLBACK TO SAVEPOINT ev');
      if (classifyPostgresError(err) === 'transient') throw err;
      const reason = `could not apply: ${failureReason(err)}`;
      await recordEvent(c, rec, e, reject('unstorable', reason));
      rejected();
      return { ok: false, error: reason };
    }
  }

  return createLogConsumer({
    kafka: deps.kafka, producer: deps.producer, pool: deps.pool, topics: deps.topics, log: deps.log,
    consumerName: deps.consumerName, topic: deps.topics.accounts, metricsPrefix: 'projector_accounts',
    apply,
    // The outbox relay is woken after every committed batch (batches of several partitions run at
    // once; the relay reads what is there, and polls besides).
    ...(deps.onFactsCommitted ? { afterCommit: deps.onFactsCommitted } : {}),
    // A record stepped over (its event row cannot be written at all): the waiting command learns
    // the outcome (422) instead of timing out, when the event decodes.
    onSetAside: async (c, rec, reason) => {
      const decoded = rec.value ? decodeEvent(rec.value) : undefined;
      if (!decoded?.ok || !isUuid(decoded.value.eventId)) return;
      await c.query('SAVEPOINT aside');
      try {
        await c.query('DELETE FROM events WHERE event_id = $1', [decoded.value.eventId]);
        await recordEvent(c, rec, decoded.value, reject('unstorable', `could not apply: ${reason}`));
        await c.query('RELEASE SAVEPOINT aside');
      } catch {
        await c.query('ROLLBACK TO SAVEPOINT aside');
      }
    },
  });
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
