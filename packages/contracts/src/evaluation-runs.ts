// Evaluation runs, scenarios, results (cells) and metrics (reference evaluations §2.3). Unknown
// top-level fields are ignored as the reference's clients expect; every text, JSON value and list is
// bounded (a hostile body gets a 422, never a stalled projector). Ids are UUIDs in any usual
// spelling (trace ids also as 32 hex digits), answered dashed.
import { z } from 'zod';
import { storedDateTime } from './dates.ts';
import { int, ints } from './numbers.ts';
import { jsonObject, text, texts, TEXT_LIMITS } from './text.ts';
import { parseUuid } from './uuid.ts';

export const EVALUATION_STATUSES = ['pending', 'queued', 'running', 'success', 'failure', 'errors', 'cancelled'] as const;
export const evaluationStatus = z.enum(EVALUATION_STATUSES);

/** Most items one request may write (each write is one event of the run; the topic caps its size too). */
export const MAX_EVALUATION_ITEMS = 10_000;

/** A UUID in any usual spelling (32 hex digits included), as its canonical dashed form. */
export const uuidText = z.union([z.guid({ error: 'value is not a valid uuid' }), z.string().regex(/^[0-9a-fA-F]{32}$/, { error: 'value is not a valid uuid' })])
  .transform((s) => parseUuid(s)!);

const header = {
  flags: jsonObject.nullish(),
  tags: jsonObject.nullish(),
  meta: jsonObject.nullish(),
};
const interval = int({ min: 0, max: 525_600, label: 'interval' }).nullish();
const stepKey = text({ min: 1, max: TEXT_LIMITS.slug, label: 'step_key' });
const list = <T extends z.ZodType>(item: T) => z.array(item).max(MAX_EVALUATION_ITEMS, { error: `at most ${MAX_EVALUATION_ITEMS} items` });

const ref = z.object({ id: texts.id.nullish(), slug: texts.slug.nullish(), version: texts.shortText.nullish() });
export const runStep = z.object({
  key: stepKey,
  type: z.enum(['input', 'invocation', 'annotation']),
  origin: z.enum(['custom', 'human', 'auto']).default('custom'),
  references: z.record(text({ max: TEXT_LIMITS.key, label: 'key' }), ref).nullish(),
  inputs: list(z.object({ key: stepKey })).nullish(),
  schemas: jsonObject.nullish(),
});
export type RunStepInput = z.infer<typeof runStep>;

export const runData = z.object({
  steps: list(runStep).nullish(),
  repeats: int({ min: 1, max: 1000, label: 'repeats' }).nullish(),
  concurrency: jsonObject.nullish(),
  mappings: z.array(jsonObject).max(MAX_EVALUATION_ITEMS).nullish(),
});

const runFields = {
  name: texts.name.nullish(),
  description: texts.description.nullish(),
  status: evaluationStatus.nullish(),
  data: runData.nullish(),
  ...header,
};
export const runCreate = z.object({ id: uuidText.nullish(), ...runFields });
export const runsCreate = z.object({ runs: z.array(runCreate).max(100) });
export const runEdit = z.object({ id: uuidText, ...runFields });
export const runEditOne = z.object({ run: runEdit });
export const runsEdit = z.object({ runs: z.array(runEdit).max(100) });
export const runIds = z.object({ run_ids: z.array(uuidText).max(1000) });

const scenarioFields = { status: evaluationStatus.nullish(), interval, timestamp: storedDateTime.nullish(), ...header };
export const scenariosCreate = z.object({ scenarios: list(z.object({ run_id: uuidText, ...scenarioFields })) });
export const scenarioEdit = z.object({ id: uuidText, ...scenarioFields });
export const scenarioEditOne = z.object({ scenario: scenarioEdit });
export const scenariosEdit = z.object({ scenarios: list(scenarioEdit) });
export const scenarioIds = z.object({ scenario_ids: list(uuidText) });

export const resultWrite = z.object({
  run_id: uuidText,
  scenario_id: uuidText,
  step_key: stepKey,
  repeat_idx: int({ min: 0, max: 1000, label: 'repeat_idx' }).nullish(),
  status: evaluationStatus.nullish(),
  trace_id: uuidText.nullish(),
  hash_id: uuidText.nullish(),
  testcase_id: uuidText.nullish(),
  error: jsonObject.nullish(),
  interval,
  timestamp: storedDateTime.nullish(),
  ...header,
});
export type ResultWrite = z.infer<typeof resultWrite>;
export const resultsWrite = z.object({ results: list(resultWrite) });
export const resultIds = z.object({ result_ids: list(uuidText) });

export const metricWrite = z.object({
  run_id: uuidText,
  scenario_id: uuidText.nullish(),
  timestamp: storedDateTime.nullish(),
  interval,
  status: evaluationStatus.nullish(),
  data: jsonObject.nullish(),
  ...header,
});
export const metricsWrite = z.object({ metrics: list(metricWrite) });
export const metricIds = z.object({ metrics_ids: list(uuidText) });

export const closeQuery = z.object({ status: evaluationStatus.optional() });

/** The reads' windowing (§1.4): applied only when sent. */
export const evaluationWindow = z.object({
  newest: storedDateTime.nullish(), oldest: storedDateTime.nullish(), next: uuidText.nullish(), limit: ints.int32.nullish(),
  order: z.enum(['ascending', 'descending']).nullish(),
});

const ids = list(uuidText).nullish();
const statuses = z.array(evaluationStatus).max(EVALUATION_STATUSES.length).nullish();
const intervals = z.array(int({ min: 0, max: 525_600 })).max(1000).nullish();
const timestamps = z.array(storedDateTime).max(1000).nullish();

export const runsQuery = z.object({
  run: z.object({
    ids, name: texts.name.nullish(), description: texts.description.nullish(), flags: jsonObject.nullish(), tags: jsonObject.nullish(),
    status: evaluationStatus.nullish(), statuses, references: z.array(z.record(text({ max: TEXT_LIMITS.key, label: 'key' }), ref)).max(100).nullish(),
  }).nullish(),
  windowing: evaluationWindow.nullish(),
});
export const scenariosQuery = z.object({
  scenario: z.object({
    ids, run_id: uuidText.nullish(), run_ids: ids, status: evaluationStatus.nullish(), statuses, interval, intervals,
    timestamp: storedDateTime.nullish(), timestamps, flags: jsonObject.nullish(), tags: jsonObject.nullish(),
  }).nullish(),
  windowing: evaluationWindow.nullish(),
});
export const resultsQuery = z.object({
  result: z.object({
    ids, run_id: uuidText.nullish(), run_ids: ids, scenario_id: uuidText.nullish(), scenario_ids: ids, step_key: stepKey.nullish(),
    step_keys: z.array(stepKey).max(1000).nullish(), repeat_idx: int({ min: 0 }).nullish(), repeat_idxs: z.array(int({ min: 0 })).max(1000).nullish(),
    status: evaluationStatus.nullish(), statuses, interval, intervals, timestamp: storedDateTime.nullish(), timestamps,
    flags: jsonObject.nullish(), tags: jsonObject.nullish(),
  }).nullish(),
  windowing: evaluationWindow.nullish(),
});
export const metricsQuery = z.object({
  metrics: z.object({
    ids, run_id: uuidText.nullish(), run_ids: ids, scenario_id: uuidText.nullish(), scenario_ids: z.union([z.boolean(), list(uuidText)]).nullish(),
    timestamp: storedDateTime.nullish(), timestamps: z.union([z.boolean(), z.array(storedDateTime).max(1000)]).nullish(), interval, intervals,
    status: evaluationStatus.nullish(), statuses, flags: jsonObject.nullish(), tags: jsonObject.nullish(),
  }).nullish(),
  windowing: evaluationWindow.nullish(),
});

/** POST /evaluations/metrics/refresh (§2.3): which keys to recompute from the cells' traces. */
export const metricsRefresh = z.object({
  metrics: z.object({
    run_id: uuidText.nullish(), run_ids: z.array(uuidText).max(100).nullish(), scenario_id: uuidText.nullish(), scenario_ids: z.array(uuidText).max(1000).nullish(),
    timestamp: storedDateTime.nullish(), timestamps: z.array(storedDateTime).max(100).nullish(), interval,
  }),
});

/** A slice of a run's cells (probe, prune, refresh): omitted = all, `[]` = none (§2.4). */
export const runSlice = z.object({
  scenario_ids: z.array(uuidText).max(MAX_EVALUATION_ITEMS).nullish(),
  step_keys: z.array(stepKey).max(1000).nullish(),
  repeat_idxs: z.array(int({ min: 0, max: 1000 })).max(1000).nullish(),
});
/** `…/process`: a slice and whether cells that succeeded are executed again. */
export const runProcess = runSlice.extend({ overwrite: z.boolean().nullish() });
export const stepsAdd = z.object({ steps: z.array(runStep).max(1000) });
export const stepsRemove = z.object({ step_keys: z.array(stepKey).max(1000) });
export const repeatsSet = z.object({ repeats: int({ min: 1, max: 1000, label: 'repeats' }) });
export const simpleEvaluationsQuery = z.object({
  evaluation: z.object({ ids: list(uuidText).nullish(), name: texts.name.nullish(), flags: jsonObject.nullish(), tags: jsonObject.nullish() }).nullish(),
  windowing: evaluationWindow.nullish(),
});

/** POST /admin/evaluations/runs/refresh (the live-run cron, §4.2): the tick's length in minutes and its end (default: now). */
export const liveRunsRefreshQuery = z.object({
  trigger_interval: z.coerce.number().int().min(1).max(60).optional(),
  trigger_datetime: storedDateTime.optional(),
});
export const liveRunsRefreshResponse = z.object({ status: z.enum(['success', 'failure', 'error']) });
