// How a queue reads to a client (reference evaluations §2.8): the run objects' conventions (id,
// version, lifecycle, no nulls); `flags` always holds is_default and is_sequential.
import { iso, lifecycle, withoutNulls } from '../run/views.ts';
import type { QueueRow } from './reads.ts';

type Json = Record<string, unknown>;

/** The fields every view of a queue shares (the simple view adds its run's sources instead of `data`). */
function queueHead(q: QueueRow): Json {
  return {
    ...lifecycle(q), run_id: q.run_id, name: q.name, description: q.description, status: q.status,
    flags: { is_default: q.flags.is_default === true, is_sequential: q.flags.is_sequential === true }, tags: q.tags, meta: q.meta,
  };
}

export function queueView(q: QueueRow): Json {
  return withoutNulls({
    ...queueHead(q), deleted_at: iso(q.deleted_at), deleted_by_id: q.deleted_by_id,
    data: q.data && Object.keys(q.data).length > 0 ? q.data : null,
  });
}

export type SimpleQueueKind = 'queries' | 'testsets' | 'traces' | 'testcases';

/** A simple queue's kind, from its run's flags (§3.5): a queue run with exactly one source family; else not a simple queue. */
export function simpleQueueKind(runFlags: Json): SimpleQueueKind | undefined {
  if (runFlags.is_queue !== true) return undefined;
  const kinds = ([['has_queries', 'queries'], ['has_testsets', 'testsets'], ['has_traces', 'traces'], ['has_testcases', 'testcases']] as const)
    .filter(([flag]) => runFlags[flag] === true).map(([, kind]) => kind);
  return kinds.length === 1 ? kinds[0] : undefined;
}

interface SimpleQueueRun { flags: Json; data: Json | null }

/** The simple view of a queue (§2.8 SimpleQueue): the queue with its run's sources, evaluators, repeats and its own assignments and batch settings. */
export function simpleQueueView(q: QueueRow, run: SimpleQueueRun): Json | undefined {
  const kind = simpleQueueKind(run.flags);
  if (!kind) return undefined;
  const steps = (Array.isArray(run.data?.steps) ? run.data.steps : []) as Array<{ key?: string; type?: string; origin?: string; references?: Record<string, { id?: string }> }>;
  const revisions = (ref: string): string[] => steps.map((s) => s.references?.[ref]?.id).filter((id): id is string => typeof id === 'string');
  const evaluators = Object.fromEntries(steps.filter((s) => s.type === 'annotation' && s.references?.evaluator_revision?.id)
    .map((s) => [s.references!.evaluator_revision!.id!, s.origin ?? 'human']));
  const d = q.data ?? {};
  const settings = withoutNulls({ batch_size: d.batch_size, batch_offset: d.batch_offset });
  return withoutNulls({
    ...queueHead(q),
    data: withoutNulls({
      kind,
      queries: kind === 'queries' ? revisions('query_revision') : null,
      testsets: kind === 'testsets' ? revisions('testset_revision') : null,
      evaluators,
      assignments: d.user_ids ?? null,
      step_keys: d.step_keys ?? null,
      repeats: typeof run.data?.repeats === 'number' ? run.data.repeats : null,
      settings: Object.keys(settings).length ? settings : null,
    }),
  });
}
