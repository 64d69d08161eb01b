// Consumes evaluations.v1 into Postgres on the shared consumer loop (@llm/pg-consumer): each partition
// batch is one transaction that also stores the consumed positions. Each event is decided by the
// run rules on the state as projected (the authority: a command's early answer may have lost a race
// meanwhile), projected when accepted, and recorded once with its verdict in evaluation_events —
// where the command waits for it. An event the store refuses is recorded as rejected `unstorable`
// (the waiting command answers 422) and dead-lettered; it never blocks the events behind it.
import { decodeEvent, type DecodedEvent, type Topics } from '@llm/events';
import type { IncomingRecord, KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { classifyPostgresError, type Pool, type PoolClient } from '@llm/postgres';
import { failureReason } from '@llm/errors';
import { counter } from '@llm/metrics';
import { createLogConsumer, type LogConsumer, type RecordVerdict } from '@llm/pg-consumer';
import { reject, type Decision, isUuid } from '@llm/account-model';
import { decideRun, isEvaluationEventType, loadRunState, projectRun, runIdOf, type EvaluationEvent } from '@llm/evaluation-model';

const rejected = counter('projector_evaluations_events_rejected_total', 'Evaluations events recorded as rejected (a run rule refused them, or the store could not hold their data).');

export interface EvaluationsConsumerDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  consumerName: string;
}

/** One event: decided on the run's rows, projected when accepted. */
async function applyEvaluationEvent(c: PoolClient, e: DecodedEvent): Promise<Decision> {
  if (!isEvaluationEventType(e.type)) return reject('evaluation_event_malformed', `a ${e.type} event on the evaluations topic`);
  const ev = e as unknown as EvaluationEvent;
  const state = await loadRunState(c, ev);
  const decision = decideRun(ev, state);
  if (decision.status === 'rejected') return decision;
  for (const s of projectRun(ev, state)) await c.query(s.text, s.values);
  return decision;
}

export function createEvaluationsConsumer(deps: EvaluationsConsumerDeps): LogConsumer {
  async function apply(c: PoolClient, e: DecodedEvent, rec: IncomingRecord): Promise<RecordVerdict> {
    if (!isUuid(e.eventId)) return { ok: false, error: 'event id is not a UUID' };
    // Applied once: a re-delivered event is skipped.
    const seen = await c.query('SELECT 1 FROM evaluation_events WHERE event_id = $1::uuid', [e.eventId]);
    if (seen.rowCount) return { ok: true };
    await c.query('SAVEPOINT ev');
    try {
      const outcome = await applyEvaluationEvent(c, e);
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
    consumerName: deps.consumerName, topic: deps.topics.evaluations, metricsPrefix: 'projector_evaluations',
    apply,
    // A record stepped over: the waiting command learns the outcome (422) instead of timing out.
    onSetAside: async (c, rec, reason) => {
      const decoded = rec.value ? decodeEvent(rec.value) : undefined;
      if (!decoded?.ok || !isUuid(decoded.value.eventId)) return;
      await c.query('SAVEPOINT aside');
      try {
        await c.query('DELETE FROM evaluation_events WHERE event_id = $1::uuid', [decoded.value.eventId]);
        await recordEvent(c, rec, decoded.value, reject('unstorable', `could not apply: ${reason}`));
        await c.query('RELEASE SAVEPOINT aside');
      } catch {
        await c.query('ROLLBACK TO SAVEPOINT aside');
      }
    },
  });
}

/** Text Postgres can hold (no NUL). */
const storable = (s: string): string => s.replace(/\u0000/g, '');

async function recordEvent(c: PoolClient, rec: IncomingRecord, e: DecodedEvent, outcome: Decision): Promise<void> {
  const r = outcome.status === 'rejected' ? outcome : undefined;
  const runId = isEvaluationEventType(e.type) ? runIdOf(e as unknown as EvaluationEvent) : '';
  const at = new Date(e.timeUs / 1000);
  await c.query(
    `INSERT INTO evaluation_events (event_id, type, run_id, project_id, occurred_at, request_id, topic, partition, "offset", status, rejection, rejection_code, rejection_details)
     VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb)`,
    [e.eventId, storable(e.type), storable(runId), storable(e.projectId), Number.isNaN(at.getTime()) ? new Date(0) : at, storable(e.requestId),
      rec.topic, rec.partition, rec.offset.toString(), outcome.status === 'rejected' ? 'rejected' : 'applied',
      r ? storable(r.message) : null, r ? r.code : null, r?.details ? storable(JSON.stringify(r.details)) : null],
  );
}
