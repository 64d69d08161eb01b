// The rules of a run's queues (reference evaluations §2.8, §3.5), decided on the run's stream with
// the run's other events: at most one default queue per run (archived ones count), a default queue
// filters nothing and is never demoted or hard-deleted (the reconciliation archives it), queues are
// created and edited only on open runs (deleting is allowed on closed ones).
import { accepted, isUuid, reject, type Decision, type RejectionPresentations } from '@llm/account-model';
import type { EvaluationQueueInfo } from '@llm/events';
import type { EvaluationEvent } from '../evaluation-event.ts';

/** A queue as the rules see it. */
export interface QueueState { id: string; runId: string; isDefault: boolean; archived: boolean }

export const QUEUE_REJECTIONS = {
  evaluation_queue_exists: 'conflict',
  evaluation_queue_not_found: 'not_found',
  /** Second default queue of a run (the reference's duplicate-key conflict body). */
  evaluation_queue_default_exists: { kind: 'conflict', body: 'conflict' },
  /** Demoting, hard-deleting a default queue: the reference's 409 `{"detail": {"message": …}}`. */
  evaluation_queue_default_fixed: { kind: 'conflict', body: 'nested' },
  /** A default queue with filters: 422 `{"detail": {"message": …}}`. */
  evaluation_queue_default_filtered: { kind: 'unprocessable', body: 'nested' },
} as const satisfies RejectionPresentations<string>;
export type QueueRejection = keyof typeof QUEUE_REJECTIONS;

export const QUEUE_MESSAGES = {
  demoted: 'default queues cannot be demoted',
  deleted: 'default queues must be archived, not hard deleted',
  filtered: 'default queues cannot filter scenarios, steps, assignments, or batches',
  exists: 'A default queue already exists for this evaluation run.',
} as const;

export const QUEUE_EVENT_TYPES = new Set<string>(['evaluations.queues.created', 'evaluations.queues.edited', 'evaluations.queues.deleted', 'evaluations.queue.archive_set']);

/** The queue ids an event names (the state loads which of them exist, and where). */
export function queueIdsOf(e: EvaluationEvent): string[] {
  switch (e.type) {
    case 'evaluations.queues.created':
    case 'evaluations.queues.edited': return e.payload.queues.map((q) => q.queue_id);
    case 'evaluations.queues.deleted': return e.payload.queue_ids;
    case 'evaluations.queue.archive_set': return [e.payload.queue_id];
    default: return [];
  }
}

const FILTER_KEYS = ['user_ids', 'scenario_ids', 'step_keys', 'batch_size', 'batch_offset'] as const;

function parsed(json: string): Record<string, unknown> | undefined {
  if (json === '') return {};
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : undefined;
  } catch { return undefined; }
}

export const isDefaultQueue = (q: Pick<EvaluationQueueInfo, 'flags_json'>): boolean => parsed(q.flags_json)?.is_default === true;
/** Whether a queue's data filters scenarios, steps, assignments or batches. */
export const filtersOf = (data: Record<string, unknown> | null | undefined): boolean => FILTER_KEYS.some((k) => data?.[k] !== undefined && data[k] !== null);

/** Malformed queue payloads (ids, JSON): never a failing batch. */
export function malformedQueue(e: EvaluationEvent): string | undefined {
  if (!queueIdsOf(e).every(isUuid)) return 'a queue id is not a UUID';
  if (e.type === 'evaluations.queues.created' || e.type === 'evaluations.queues.edited') {
    for (const q of e.payload.queues) if ([q.flags_json, q.tags_json, q.meta_json, q.data_json].some((j) => parsed(j) === undefined)) return 'a queue field is not a JSON object';
  }
  return undefined;
}

/** A queue event on an existing run of the event's project (checked by the run rules before). */
export function decideQueue(e: EvaluationEvent, runId: string, queues: readonly QueueState[]): Decision<QueueRejection> {
  const byId = new Map(queues.map((q) => [q.id.toLowerCase(), q]));
  const runDefault = queues.find((q) => q.runId === runId.toLowerCase() && q.isDefault);
  switch (e.type) {
    case 'evaluations.queues.created': {
      const ids = e.payload.queues.map((q) => q.queue_id.toLowerCase());
      if (new Set(ids).size !== ids.length || ids.some((id) => byId.has(id))) return reject('evaluation_queue_exists', 'A queue with this id already exists.');
      const defaults = e.payload.queues.filter(isDefaultQueue);
      if (defaults.some((q) => filtersOf(parsed(q.data_json)))) return reject('evaluation_queue_default_filtered', QUEUE_MESSAGES.filtered);
      if (defaults.length > 1 || (defaults.length === 1 && runDefault)) return reject('evaluation_queue_default_exists', QUEUE_MESSAGES.exists, { run_id: runId });
      return accepted;
    }
    case 'evaluations.queues.edited': {
      for (const q of e.payload.queues) {
        const stored = byId.get(q.queue_id.toLowerCase());
        if (!stored || stored.runId !== runId.toLowerCase()) return reject('evaluation_queue_not_found', 'Queue not found.', { queue_id: q.queue_id });
        if (stored.isDefault && !isDefaultQueue(q)) return reject('evaluation_queue_default_fixed', QUEUE_MESSAGES.demoted);
        if (isDefaultQueue(q) && filtersOf(parsed(q.data_json))) return reject('evaluation_queue_default_filtered', QUEUE_MESSAGES.filtered);
        if (!stored.isDefault && isDefaultQueue(q) && runDefault) return reject('evaluation_queue_default_exists', QUEUE_MESSAGES.exists, { run_id: runId });
      }
      return accepted;
    }
    case 'evaluations.queues.deleted': {
      const named = e.payload.queue_ids.map((id) => byId.get(id.toLowerCase())).filter((q): q is QueueState => q !== undefined && q.runId === runId.toLowerCase());
      return named.some((q) => q.isDefault) ? reject('evaluation_queue_default_fixed', QUEUE_MESSAGES.deleted) : accepted;
    }
    case 'evaluations.queue.archive_set': {
      const stored = byId.get(e.payload.queue_id.toLowerCase());
      return stored && stored.runId === runId.toLowerCase() ? accepted : reject('evaluation_queue_not_found', 'Queue not found.', { queue_id: e.payload.queue_id });
    }
    default: return accepted;
  }
}
