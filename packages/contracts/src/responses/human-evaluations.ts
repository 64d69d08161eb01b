// zod schemas of the human-evaluation answers (reference accounts §12). The applications and
// testsets they name are artifacts (responses/artifacts.ts).
import { z } from 'zod';
import { HUMAN_EVALUATION_TYPE_VALUES } from '../human-evaluations.ts';

const uuid = z.uuid();
const iso = z.string();

/** GET /human-evaluations: revision numbers as text (`" None"` when the linked revision is gone). */
export const humanEvaluationsResponse = z.array(z.object({
  id: uuid, app_id: uuid, project_id: uuid, evaluation_type: z.enum(HUMAN_EVALUATION_TYPE_VALUES),
  variant_ids: z.array(uuid), variant_names: z.array(z.string()), variants_revision_ids: z.array(z.string()), revisions: z.array(z.string()),
  testset_id: uuid, testset_name: z.string(), status: z.string(), created_at: iso, updated_at: iso,
}));

/** POST /human-evaluations. */
export const humanEvaluationCreatedResponse = z.object({
  id: uuid, variant_ids: z.array(uuid), app_id: uuid, status: z.string(), evaluation_type: z.enum(HUMAN_EVALUATION_TYPE_VALUES),
});
