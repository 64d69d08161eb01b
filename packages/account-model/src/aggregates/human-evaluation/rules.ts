// Human evaluations (reference accounts §12, compat §4.1). Keyed `project:<id>:evaluations`. One
// event carries the evaluation, its variant links and its scenarios, so a refused creation leaves
// nothing behind (the reference inserts first and can leave an orphan evaluation). The rules: the
// application and the testset belong to the evaluation's project (never looked up across
// projects), and each variant is a live variant of that application linked to the revision whose
// number is its current one. The rows-versus-inputs check is the command's: testsets never change.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';

export type HumanEvaluationEventType = 'accounts.human_evaluation.created';
export type HumanEvaluationEvent = AccountEvent<HumanEvaluationEventType>;

export const HUMAN_EVALUATION_TYPES = ['human_a_b_testing', 'single_model_test'] as const;

export interface HumanEvaluationState {
  /** The application named, when it exists (in any project: the rule compares). */
  app: { id: string; projectId: string } | undefined;
  testset: { id: string; projectId: string } | undefined;
  /** The variants named, with their current revision's id (undefined when none has that number). */
  variants: Array<{ id: string; applicationId: string; archived: boolean; currentRevisionId: string | undefined }>;
  evaluations: Array<{ id: string }>;
}

export const HUMAN_EVALUATION_REJECTIONS = {
  human_evaluation_exists: 'conflict',
  human_evaluation_app_not_found: 'not_found',
  human_evaluation_testset_not_found: 'not_found',
  human_evaluation_variant_not_found: 'invalid',
  human_evaluation_revision_mismatch: 'invalid',
  human_evaluation_type_invalid: 'invalid',
} as const;
export type HumanEvaluationRejection = keyof typeof HUMAN_EVALUATION_REJECTIONS;

export const HUMAN_EVALUATION_APP_NOT_FOUND = 'App not found';
export const HUMAN_EVALUATION_TESTSET_NOT_FOUND = 'Testset not found';
// The reference's wording (misleading, but clients match on it).
export const HUMAN_EVALUATION_VARIANT_NOT_FOUND = 'columns in the testset should match the names of the inputs in the variant';
export const HUMAN_EVALUATION_REVISION_MISMATCH = 'Mismatch between variants and their revisions';

export const humanEvaluationRules = rules({
  eventTypes: ['accounts.human_evaluation.created'],
  rejections: HUMAN_EVALUATION_REJECTIONS,

  decide(e: HumanEvaluationEvent, s: HumanEvaluationState): Decision<HumanEvaluationRejection> {
    const p = e.payload;
    if (s.evaluations.some((x) => sameId(x.id, p.evaluation_id))) return reject('human_evaluation_exists', 'Evaluation already exists');
    if (!(HUMAN_EVALUATION_TYPES as readonly string[]).includes(p.evaluation_type)) return reject('human_evaluation_type_invalid', 'Unknown evaluation type');
    if (!s.app || !sameId(s.app.id, p.app_id) || !sameId(s.app.projectId, p.project_id)) return reject('human_evaluation_app_not_found', HUMAN_EVALUATION_APP_NOT_FOUND);
    if (!s.testset || !sameId(s.testset.id, p.testset_id) || !sameId(s.testset.projectId, p.project_id)) {
      return reject('human_evaluation_testset_not_found', HUMAN_EVALUATION_TESTSET_NOT_FOUND);
    }
    for (const link of p.variants) {
      const v = s.variants.find((x) => sameId(x.id, link.variant_id));
      if (!v || v.archived || !sameId(v.applicationId, p.app_id)) return reject('human_evaluation_variant_not_found', HUMAN_EVALUATION_VARIANT_NOT_FOUND);
      if (v.currentRevisionId === undefined || !sameId(v.currentRevisionId, link.revision_id)) {
        return reject('human_evaluation_revision_mismatch', HUMAN_EVALUATION_REVISION_MISMATCH);
      }
    }
    return accepted;
  },
});

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** A project's human evaluations. */
export const evaluationsKey = (projectId: string): string => `project:${projectId}:evaluations`;
