// An evaluations event as the run rules see it: the same shape whether the command is about to
// append it (its early answer) or the projector has decoded it from evaluations.v1 (the authority).
import type { DecodedEvent, EventType } from '@llm/events';

export type EvaluationEventType = Extract<EventType, `evaluations.${string}`>;

type Fields = 'type' | 'payload' | 'projectId' | 'actorId' | 'timeUs';

/** One event of type T (a union of types gives a discriminated union of events). */
export type EvaluationEvent<T extends EvaluationEventType = EvaluationEventType> = { [K in T]: Pick<DecodedEvent<K>, Fields> }[T];

export const EVALUATION_EVENT_TYPES = [
  'evaluations.run.created', 'evaluations.run.edited', 'evaluations.run.lifecycle_set', 'evaluations.run.deleted',
  'evaluations.scenarios.added', 'evaluations.scenarios.edited', 'evaluations.scenarios.deleted',
  'evaluations.results.upserted', 'evaluations.results.deleted', 'evaluations.metrics.upserted', 'evaluations.metrics.deleted', 'evaluations.metrics.refreshed', 'evaluations.run.schemas_inferred',
  'evaluations.run.dispatched', 'evaluations.run.dispatch_finished',
  'evaluations.queues.created', 'evaluations.queues.edited', 'evaluations.queues.deleted', 'evaluations.queue.archive_set',
] as const satisfies readonly EvaluationEventType[];

// Every evaluations event type is listed above: a type added to the registry without a rule does not compile.
type Missing = Exclude<EvaluationEventType, (typeof EVALUATION_EVENT_TYPES)[number]>;
export const everyEvaluationTypeListed: Missing extends never ? true : Missing = true;

export const isEvaluationEventType = (t: string): t is EvaluationEventType => (EVALUATION_EVENT_TYPES as readonly string[]).includes(t);
