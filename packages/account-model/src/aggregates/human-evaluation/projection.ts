// human_evaluations with their variant links and scenarios, from one accounts.human_evaluation.created
// fact (rules: rules.ts): all of it or nothing, in the batch transaction.
import { eventTime } from '../../account-event.ts';
import type { HumanEvaluationEvent, HumanEvaluationState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

export function projectHumanEvaluation(e: HumanEvaluationEvent, _s: HumanEvaluationState): SqlStatement[] {
  const p = e.payload;
  const at = eventTime(e);
  const statements: SqlStatement[] = [{
    text: `INSERT INTO human_evaluations (id, project_id, app_id, evaluation_type, status, testset_id, created_at, updated_at, created_by_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`,
    values: [p.evaluation_id, p.project_id, p.app_id, p.evaluation_type, p.status, p.testset_id, at, e.actorId || null],
  }];
  if (p.variants.length > 0) {
    statements.push({
      text: `INSERT INTO human_evaluation_variants (evaluation_id, position, variant_id, revision_id)
             SELECT $1, t.position - 1, t.variant_id, t.revision_id FROM unnest($2::uuid[], $3::uuid[]) WITH ORDINALITY AS t(variant_id, revision_id, position)`,
      values: [p.evaluation_id, p.variants.map((v) => v.variant_id), p.variants.map((v) => v.revision_id)],
    });
  }
  if (p.scenarios.length > 0) {
    // The A/B kind is voted on, the single-model kind scored: the other column stays NULL.
    const ab = p.evaluation_type === 'human_a_b_testing';
    statements.push({
      text: `INSERT INTO human_evaluation_scenarios (id, evaluation_id, position, inputs, vote, score, correct_answer)
             SELECT t.id, $1, t.position - 1, t.inputs::jsonb, $4, $5, t.correct_answer
               FROM unnest($2::uuid[], $3::text[], $6::text[]) WITH ORDINALITY AS t(id, inputs, correct_answer, position)`,
      values: [p.evaluation_id, p.scenarios.map((s) => s.scenario_id), p.scenarios.map((s) => s.inputs_json), ab ? '' : null, ab ? null : '',
        p.scenarios.map((s) => s.correct_answer)],
    });
  }
  return statements;
}
