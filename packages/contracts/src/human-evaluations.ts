// Human evaluations (reference accounts §12) of an application and a testset of the artifact model
// (artifacts.ts). Unknown top-level fields are ignored as the reference's clients expect.
import { z } from 'zod';
import { texts } from './text.ts';

/** Ids as sent: any string; the handler tells a malformed one (400) from an unknown one (404). */
const idText = texts.id;

export const HUMAN_EVALUATION_TYPE_VALUES = ['human_a_b_testing', 'single_model_test'] as const;

/** POST /human-evaluations (§12): every field required; extra keys (evaluation_type_settings, …) ignored. */
export const humanEvaluationCreate = z.object({
  app_id: idText,
  variant_ids: z.array(idText),
  evaluation_type: z.enum(HUMAN_EVALUATION_TYPE_VALUES),
  inputs: z.array(texts.shortText),
  testset_id: idText,
  status: texts.shortText,
});
export type HumanEvaluationCreate = z.infer<typeof humanEvaluationCreate>;

export const humanEvaluationList = z.object({ app_id: idText });

/** One item of GET /human-evaluations (spec "HumanEvaluation (list item)"). */
export interface HumanEvaluationView {
  id: string; app_id: string; project_id: string; evaluation_type: string;
  variant_ids: string[]; variant_names: string[]; variants_revision_ids: string[]; revisions: string[];
  testset_id: string; testset_name: string; status: string; created_at: string; updated_at: string;
}
