// Consumes the accounts topic into Postgres. Each batch is one transaction that also stores the
// consumed positions, so re-delivery after a crash is harmless; events already in `events` are
// skipped. Undecodable records and records that fail to apply go to the dead-letter topic.
import { decodeEvent, type Topics } from '@llm/events';
import { sendToDlq, type IncomingBatch, type KafkaClient, type Producer, type Consumer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { withTransaction, type Pool, type PoolClient } from '@llm/postgres';
import { backoffMs, sleep } from '@llm/errors';
import { factsNeeded, projectAccountEvent, type AccountFacts, type FactsNeeded } from '../domain/account-projection.ts';
import { readSavedQueryFacts } from './saved-query-facts.ts';
import { readDomainFacts } from './domain-facts.ts';
import { readIdentityFacts } from './identity-facts.ts';
import { readOrganizationAuthFacts } from './organization-auth-facts.ts';
import { readApiKeyFacts } from './api-key-facts.ts';
import { readMembershipFacts } from './membership-facts.ts';

export interface AccountsConsumerDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  consumerName: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function readFacts(c: PoolClient, need: FactsNeeded): Promise<AccountFacts> {
  const r = await c.query<{ email_taken: boolean; user_exists: boolean; slug_taken: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1)) AS email_taken,
            EXISTS (SELECT 1 FROM users WHERE id::text = $2) AS user_exists,
            EXISTS (SELECT 1 FROM organizations WHERE $3 <> '' AND slug = $3) AS slug_taken`,
    [need.email ?? '', need.userId ?? '', need.orgSlug ?? ''],
  );
  const facts: AccountFacts = { emailTaken: r.rows[0]!.email_taken, userExists: r.rows[0]!.user_exists, orgSlugTaken: r.rows[0]!.slug_taken };
  if (need.savedQuery) facts.savedQuery = await readSavedQueryFacts(c, need.savedQuery);
  if (need.domain) facts.domain = await readDomainFacts(c, need.domain);
  if (need.identity) facts.identity = await readIdentityFacts(c, need.identity);
  if (need.organizationAuth) facts.organizationAuth = await readOrganizationAuthFacts(c, need.organizationAuth);
  if (need.apiKey) facts.apiKey = await readApiKeyFacts(c, need.apiKey);
  if (need.membership) facts.membership = await readMembershipFacts(c, need.membership);
  return facts;
}

export function createAccountsConsumer(deps: AccountsConsumerDeps): { consumer: Consumer; start(): Promise<void>; stop(): Promise<void> } {
  const { pool, topics, log, consumerName } = deps;
  const consumer = deps.kafka.consumer({
    groupId: consumerName,
    topics: [topics.accounts],
    fromBeginning: true,
    concurrency: 3,
    startOffsets: async (topic, partition) => {
      const r = await pool.query<{ next_offset: string }>(
        'SELECT next_offset FROM projector_offsets WHERE consumer = $1 AND topic = $2 AND partition = $3',
        [consumerName, topic, partition],
      );
      return r.rows[0] ? BigInt(r.rows[0].next_offset) : undefined;
    },
  });

  async function applyBatch(batch: IncomingBatch): Promise<void> {
    const dead: Array<{ offset: bigint; error: string }> = [];
    await withTransaction(pool, async (c) => {
      for (const rec of batch.records) {
        const decoded = rec.value ? decodeEvent(rec.value) : { ok: false as const, error: 'empty record value' };
        if (!decoded.ok) { dead.push({ offset: rec.offset, error: decoded.error }); continue; }
        const e = decoded.value;
        if (!UUID.test(e.eventId)) { dead.push({ offset: rec.offset, error: `event id '${e.eventId}' is not a UUID` }); continue; }
        const seen = await c.query('SELECT 1 FROM events WHERE event_id = $1', [e.eventId]);
        if (seen.rowCount) continue;
        const facts = await readFacts(c, factsNeeded(e));
        const projection = projectAccountEvent(e, facts);
        let status: 'applied' | 'rejected' = projection.status;
        let rejection = projection.status === 'rejected' ? projection.reason : null;
        if (projection.status === 'applied') {
          await c.query('SAVEPOINT ev');
          try {
            for (const st of projection.statements) await c.query(st.text, st.values);
            await c.query('RELEASE SAVEPOINT ev');
          } catch (err) {
            await c.query('ROLLBACK TO SAVEPOINT ev');
            status = 'rejected';
            rejection = `could not apply: ${(err as Error).message}`;
            dead.push({ offset: rec.offset, error: rejection });
          }
        }
        await c.query(
          `INSERT INTO events (event_id, type, aggregate_id, project_id, organization_id, occurred_at, request_id, topic, partition, "offset", status, rejection, payload)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)`,
          [e.eventId, e.type, e.aggregateId || rec.key || '', e.projectId, e.organizationId, new Date(e.timeUs / 1000).toISOString(), e.requestId,
            rec.topic, rec.partition, rec.offset.toString(), status, rejection, JSON.stringify(redact(e.payload))],
        );
      }
      const next = batch.records[batch.records.length - 1]!.offset + 1n;
      await c.query(
        `INSERT INTO projector_offsets (consumer, topic, partition, next_offset) VALUES ($1,$2,$3,$4)
         ON CONFLICT (consumer, topic, partition) DO UPDATE SET next_offset = GREATEST(projector_offsets.next_offset, EXCLUDED.next_offset)`,
        [consumerName, batch.topic, batch.partition, next.toString()],
      );
    });
    for (const d of dead) {
      const rec = batch.records.find((r) => r.offset === d.offset)!;
      await sendToDlq(deps.producer, topics.dlq(topics.accounts), rec, d.error);
      log.error({ topic: rec.topic, partition: rec.partition, offset: rec.offset.toString(), error: d.error }, 'accounts record dead-lettered');
    }
  }

  return {
    consumer,
    async start() {
      await consumer.start(async (batch) => {
        // Transient failures (Postgres restarting) are retried with capped backoff; the batch is
        // never skipped.
        for (let attempt = 0; ; attempt++) {
          try { await applyBatch(batch); return; } catch (err) {
            log.warn({ err, attempt, partition: batch.partition }, 'accounts batch failed; retrying');
            await sleep(backoffMs(attempt, 200, 10_000));
          }
        }
      });
    },
    stop: () => consumer.stop(),
  };
}

// The event log keeps payloads for queries, but never secret hashes or sealed secrets.
const REDACTED = new Set(['secret_hash', 'client_secret_sealed']);
function redact(p: unknown): unknown {
  if (!p || typeof p !== 'object') return p;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p as Record<string, unknown>)) {
    out[k] = REDACTED.has(k) ? '[redacted]' : redact(v);
  }
  return Array.isArray(p) ? Object.values(out) : out;
}
