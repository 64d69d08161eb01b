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
