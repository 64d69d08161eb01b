// The one way an evaluation change happens (docs/design/evaluations.md §3.6): decide early with the
// run rules on the run's rows as projected (a fast, exact answer in the common case), append the
// event to evaluations.v1 keyed by its run, wait for projector-evaluations' verdict, and answer a
// rejection with its code's presentation. The projector decides again on the ordered log, so a race
// lost meanwhile (the run closed between the early answer and the append) is still a rejection.
import { randomUUID } from 'node:crypto';
import { sleep, AppError, unavailable } from '@llm/errors';
import { decideRun, evaluationRejectionError, loadRunState, readEvaluationOutcome, type EvaluationEvent, type EvaluationEventType } from '@llm/evaluation-model';
import { encodeEvent, evaluationRunKey, type EventPayloads, type Topics } from '@llm/events';
import { RecordTooLargeError, type Producer } from '@llm/kafka';
import type { Pool } from '@llm/postgres';
import type { Actor } from '../../actor.ts';
import { projectionLag } from '../../accounts/adapters/account-commands.ts';

export interface EvaluationWrite<T extends EvaluationEventType> {
  type: T;
  runId: string;
  payload: EventPayloads[T];
}

export class EvaluationCommands {
  private readonly timeoutMs: number;

  constructor(private readonly producer: Producer, private readonly topics: Topics, private readonly pool: Pool, opts: { timeoutMs?: number } = {}) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /** One change of a run in the caller's project: decided early, appended, awaited; a rejection is thrown as its presentation. */
  async run<T extends EvaluationEventType>(req: Actor, w: EvaluationWrite<T>): Promise<void> {
    const projectId = req.scope.projectId;
    const timeUs = Date.now() * 1000;
    const draft = { type: w.type, payload: w.payload, projectId, actorId: req.scope.userId, timeUs } as unknown as EvaluationEvent;
    const early = decideRun(draft, await loadRunState(this.pool, draft));
    if (early.status === 'rejected') throw evaluationRejectionError(early);
    const eventId = randomUUID();
    const key = evaluationRunKey(projectId, w.runId);
    const value = encodeEvent(w.type, w.payload, {
      eventId, projectId, organizationId: req.scope.organizationId, requestId: req.id, actorId: req.scope.userId, aggregateId: key, timeUs,
    });
    try {
      await this.producer.send(this.topics.evaluations, [{ key, value }]);
    } catch (err) {
      if (err instanceof RecordTooLargeError) {
        throw new AppError({ code: 'change_too_large', kind: 'too_large', message: `The change is too large to record: ${err.bytes} bytes, above the ${err.limit} byte limit.`, cause: err });
      }
      throw unavailable('queue_unavailable', 'Failed to append the evaluation event. Retry later.', err);
    }
    const deadline = Date.now() + this.timeoutMs;
    for (let i = 0; Date.now() < deadline; i++) {
      const outcome = await readEvaluationOutcome(this.pool, eventId);
      if (outcome?.status === 'applied') return;
      if (outcome) throw evaluationRejectionError(outcome);
      // A verdict usually lands 10–40 ms after the append: look every few milliseconds at first (a
      // primary-key read), so an answer does not wait a coarse step past it; then every 50 ms.
      await sleep(Math.min(2 * (i + 1), 50));
    }
    throw projectionLag();
  }
}
