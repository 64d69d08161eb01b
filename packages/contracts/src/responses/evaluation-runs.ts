// zod schemas of the evaluation-run answers (reference evaluations §2.3; views in
// packages/evaluation-model/src/run/views.ts): every object carries its id, the object version and
// its lifecycle, and omits null fields.
import { z } from 'zod';
import { EVALUATION_STATUSES } from '../evaluation-runs.ts';

const uuid = z.uuid();
/** Trace, hash and testcase ids: any 128 bits, read back dashed (a trace id is not an RFC 4122 UUID). */
const dashed = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const json = z.record(z.string(), z.unknown());
const status = z.enum(EVALUATION_STATUSES);
const lifecycle = {
  id: uuid, version: z.literal('2025-07-14'), created_at: z.string(), created_by_id: z.string().optional(),
  updated_at: z.string().optional(), updated_by_id: z.string().optional(), flags: json.optional(), tags: json.optional(), meta: json.optional(),
};

export const evaluationRunView = z.object({
  ...lifecycle, name: z.string().optional(), description: z.string().optional(), status, flags: json, data: json.optional(),
});
export const evaluationScenarioView = z.object({ ...lifecycle, run_id: uuid, status, interval: z.number().optional(), timestamp: z.string().optional() });
export const evaluationResultView = z.object({
  ...lifecycle, run_id: uuid, scenario_id: uuid, step_key: z.string(), repeat_idx: z.number().int(), status,
  trace_id: dashed.optional(), hash_id: dashed.optional(), testcase_id: dashed.optional(), error: json.optional(), interval: z.number().optional(), timestamp: z.string().optional(),
});
export const evaluationMetricView = z.object({
  ...lifecycle, run_id: uuid, scenario_id: uuid.optional(), timestamp: z.string().optional(), interval: z.number().optional(), status, data: json.optional(),
});

const none = z.object({ count: z.literal(0) });
export const evaluationRunResponse = z.union([z.object({ count: z.literal(1), run: evaluationRunView }), none]);
export const evaluationRunsResponse = z.object({ count: z.number().int(), runs: z.array(evaluationRunView), windowing: json.optional() });
export const evaluationRunIdsResponse = z.object({ count: z.number().int(), run_ids: z.array(uuid) });
export const evaluationRunIdResponse = z.union([z.object({ count: z.literal(1), run_id: uuid }), none]);
export const evaluationScenarioResponse = z.union([z.object({ count: z.literal(1), scenario: evaluationScenarioView }), none]);
export const evaluationScenariosResponse = z.object({ count: z.number().int(), scenarios: z.array(evaluationScenarioView) });
export const evaluationScenarioIdsResponse = z.object({ count: z.number().int(), scenario_ids: z.array(uuid) });
export const evaluationScenarioIdResponse = z.union([z.object({ count: z.literal(1), scenario_id: uuid }), none]);
export const evaluationResultResponse = z.union([z.object({ count: z.literal(1), result: evaluationResultView }), none]);
export const evaluationResultsResponse = z.object({ count: z.number().int(), results: z.array(evaluationResultView) });
export const evaluationResultIdsResponse = z.object({ count: z.number().int(), result_ids: z.array(uuid) });
export const evaluationResultIdResponse = z.union([z.object({ count: z.literal(1), result_id: uuid }), none]);
export const evaluationMetricsResponse = z.object({ count: z.number().int(), metrics: z.array(evaluationMetricView) });
export const evaluationMetricIdsResponse = z.object({ count: z.number().int(), metrics_ids: z.array(uuid) });

const stepMap = z.record(z.string(), z.enum(['custom', 'human', 'auto']));
export const simpleEvaluationView = z.object({
  ...lifecycle, name: z.string().optional(), description: z.string().optional(), flags: json,
  data: z.object({ status, query_steps: stepMap, testset_steps: stepMap, application_steps: stepMap, evaluator_steps: stepMap, repeats: z.number().int().optional() }),
});
export const simpleEvaluationResponse = z.union([z.object({ count: z.literal(1), evaluation: simpleEvaluationView }), none]);
export const simpleEvaluationsResponse = z.object({ count: z.number().int(), evaluations: z.array(simpleEvaluationView) });
export const simpleEvaluationDeletedResponse = z.union([z.object({ count: z.literal(1), evaluation_id: uuid }), none]);

export const evaluationQueueView = z.object({
  ...lifecycle, run_id: uuid, name: z.string().optional(), description: z.string().optional(), status,
  flags: z.object({ is_default: z.boolean(), is_sequential: z.boolean() }), data: json.optional(), deleted_at: z.string().optional(), deleted_by_id: z.string().optional(),
});
export const evaluationQueueResponse = z.union([z.object({ count: z.literal(1), queue: evaluationQueueView }), none]);
export const evaluationQueuesResponse = z.object({ count: z.number().int(), queues: z.array(evaluationQueueView) });
export const evaluationQueueIdsResponse = z.object({ count: z.number().int(), queue_ids: z.array(uuid) });
export const evaluationQueueIdResponse = z.union([z.object({ count: z.literal(1), queue_id: uuid }), none]);

export const simpleQueueView = z.object({
  ...lifecycle, run_id: uuid, name: z.string().optional(), description: z.string().optional(), status,
  flags: z.object({ is_default: z.boolean(), is_sequential: z.boolean() }),
  data: z.object({
    kind: z.enum(['queries', 'testsets', 'traces', 'testcases']), queries: z.array(z.string()).optional(), testsets: z.array(z.string()).optional(),
    evaluators: z.record(z.string(), z.string()), assignments: z.array(z.array(z.string())).optional(), step_keys: z.array(z.string()).optional(),
    repeats: z.number().int().optional(), settings: json.optional(),
  }),
});
export const simpleQueueResponse = z.union([z.object({ count: z.literal(1), queue: simpleQueueView }), none]);
export const simpleQueuesResponse = z.object({ count: z.number().int(), queues: z.array(simpleQueueView) });
export const simpleQueueAddedResponse = z.union([z.object({ count: z.literal(1), queue_id: uuid }), none]);
