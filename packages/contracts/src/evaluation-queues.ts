// Queues of evaluation runs (reference evaluations §2.8): which scenarios of a run people annotate,
// split between users by lanes (`user_ids`, one list per repeat). Bounded like the run bodies.
import { z } from 'zod';
import { int, ints } from './numbers.ts';
import { jsonObject, text, texts, TEXT_LIMITS } from './text.ts';
import { EVALUATION_STATUSES, MAX_EVALUATION_ITEMS, evaluationStatus, evaluationWindow, uuidText } from './evaluation-runs.ts';

const header = { flags: z.object({ is_sequential: z.boolean().nullish(), is_default: z.boolean().nullish() }).nullish(), tags: jsonObject.nullish(), meta: jsonObject.nullish() };
export const queueData = z.object({
  user_ids: z.array(z.array(uuidText).max(1000)).max(100).nullish(),
  scenario_ids: z.array(uuidText).max(MAX_EVALUATION_ITEMS).nullish(),
  step_keys: z.array(text({ min: 1, max: TEXT_LIMITS.slug, label: 'step_key' })).max(1000).nullish(),
  batch_size: int({ min: 1, max: 1_000_000, label: 'batch_size' }).nullish(),
  batch_offset: int({ min: 0, max: 1_000_000_000, label: 'batch_offset' }).nullish(),
});
const queueFields = { name: texts.name.nullish(), description: texts.description.nullish(), status: evaluationStatus.nullish(), data: queueData.nullish(), ...header };
export const queueCreate = z.object({ id: uuidText.nullish(), run_id: uuidText, ...queueFields });
export const queuesCreate = z.object({ queues: z.array(queueCreate).max(100) });
export const queueEdit = z.object({ id: uuidText, ...queueFields });
export const queueEditOne = z.object({ queue: queueEdit });
export const queuesEdit = z.object({ queues: z.array(queueEdit).max(100) });
export const queueIds = z.object({ queue_ids: z.array(uuidText).max(1000) });
const ids = z.array(uuidText).max(MAX_EVALUATION_ITEMS).nullish();
export const queuesQuery = z.object({
  queue: z.object({
    ids, run_id: uuidText.nullish(), run_ids: ids, user_id: uuidText.nullish(), user_ids: ids,
    flags: jsonObject.nullish(), tags: jsonObject.nullish(), name: texts.name.nullish(), description: texts.description.nullish(), include_archived: z.boolean().nullish(),
  }).nullish(),
  windowing: evaluationWindow.nullish(),
}).nullish();
/** §3.5: a queue's scenarios, for one user's lanes when `user_id` is sent; position-paged (`windowing.next` = the last id seen). */
export const queueScenariosQuery = z.object({
  queue: z.object({ id: uuidText.nullish(), user_id: uuidText.nullish() }).nullish(),
  scenario: z.object({ status: evaluationStatus.nullish(), statuses: z.array(evaluationStatus).max(EVALUATION_STATUSES.length).nullish() }).nullish(),
  windowing: z.object({ next: uuidText.nullish(), limit: ints.int32.nullish() }).nullish(),
}).nullish();

// Simple queues (§2.8 SimpleQueue): a queue with the run built for it.
const revisionIds = z.array(uuidText).max(100);
export const SIMPLE_QUEUE_KINDS = ['queries', 'testsets', 'traces', 'testcases'] as const;
export const simpleQueueCreate = z.object({
  queue: z.object({
    name: texts.name.nullish(), description: texts.description.nullish(), status: evaluationStatus.nullish(), tags: jsonObject.nullish(), meta: jsonObject.nullish(),
    data: z.object({
      kind: z.enum(SIMPLE_QUEUE_KINDS).nullish(),
      queries: revisionIds.nullish(),
      testsets: revisionIds.nullish(),
      evaluators: z.union([revisionIds, z.record(z.string().max(64), z.enum(['custom', 'human', 'auto']))]).nullish(),
      repeats: int({ min: 1, max: 100, label: 'repeats' }).nullish(),
      assignments: queueData.shape.user_ids,
      step_keys: queueData.shape.step_keys,
      settings: z.object({ batch_size: queueData.shape.batch_size, batch_offset: queueData.shape.batch_offset }).nullish(),
    }),
  }),
});
export type SimpleQueueCreate = z.infer<typeof simpleQueueCreate>;
export const simpleQueuesQuery = z.object({
  queue: z.object({
    kind: z.enum(SIMPLE_QUEUE_KINDS).nullish(), run_id: uuidText.nullish(), run_ids: ids, user_id: uuidText.nullish(), user_ids: ids,
    name: texts.name.nullish(), queue_ids: ids, tags: jsonObject.nullish(),
  }).nullish(),
  windowing: evaluationWindow.nullish(),
}).nullish();
/** Traces added to a direct traces queue (32 hex digits or dashed). */
export const simpleQueueTraces = z.object({ trace_ids: z.array(uuidText).min(1).max(MAX_EVALUATION_ITEMS) });
export const simpleQueueTestcases = z.object({ testcase_ids: z.array(uuidText).min(1).max(MAX_EVALUATION_ITEMS) });
