// Human evaluations (reference accounts §12, compat §4) of an application and a testset of the
// artifact model (services/command/src/artifacts; logs holding the legacy application and testset
// events still name theirs). An evaluation with its variant links and scenarios is one accounts
// event appended and awaited, so a refused creation leaves nothing behind (the reference can leave
// an orphan evaluation). Everything is looked up in the caller's project only: another project's
// application or testset is unknown here (the reference looks an application up by id alone).
import type { RequestHandler } from 'express';
import {
  HUMAN_EVALUATION_APP_NOT_FOUND, HUMAN_EVALUATION_REVISION_MISMATCH, HUMAN_EVALUATION_TESTSET_NOT_FOUND, HUMAN_EVALUATION_VARIANT_NOT_FOUND,
  evaluationUuid, evaluationsKey, readEvaluationApp, readEvaluationRows, readEvaluationTestset, readEvaluationVariants, refuse,
} from '@llm/account-model';
import { humanEvaluationCreate } from '@llm/contracts';
import { invalid, notFound } from '@llm/errors';
import { uuidv7 } from '@llm/events';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { AccountCommands } from '../adapters/account-commands.ts';
import type { QuotaGate } from '../../quota/adapters/quota-gate.ts';

export interface HumanEvaluationRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  /** The organization's `evaluations_run` quota: reserved before the evaluation is appended (§2.3). */
  quota: Pick<QuotaGate, 'evaluation'>;
}


/** The 400 of a row that lacks an input (§12: the variant's inputs against the row's columns, minus correct_answer). */
function rowMismatch(inputs: string[], row: { data: Record<string, unknown> }): Error {
  const columns = Object.keys(row.data).filter((c) => c !== 'correct_answer' && c !== 'testcase_dedup_id');
  return invalid('human_evaluation_inputs_mismatch', [
    'Columns in the test set should match the names of the inputs in the variant.',
    `Inputs names in variant are: [${inputs.map((i) => `'${i}'`).join(', ')}]`,
    `while columns in test set are: [${columns.map((c) => `'${c}'`).join(', ')}]`,
  ].join('\n'));
}

const answerText = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

export function humanEvaluationRoutes(deps: HumanEvaluationRouteDeps, guards: Guards<'createEvaluations'>): Handlers {
  const { pool, commands } = deps;

  const createEvaluation: RequestHandler = async (req, res) => {
    const body = validate(humanEvaluationCreate, req.body);
    const projectId = req.scope.projectId;
    const appId = evaluationUuid(body.app_id);
    const testsetId = evaluationUuid(body.testset_id);
    const variantIds = body.variant_ids.map(evaluationUuid);
    const app = await readEvaluationApp(pool, appId);
    if (!app || app.projectId !== projectId) throw notFound('app_not_found', HUMAN_EVALUATION_APP_NOT_FOUND);
    const testset = await readEvaluationTestset(pool, testsetId);
    if (!testset || testset.projectId !== projectId) throw notFound('testset_not_found', HUMAN_EVALUATION_TESTSET_NOT_FOUND);
    const known = await readEvaluationVariants(pool, variantIds);
    const variants: Array<{ variant_id: string; revision_id: string }> = [];
    for (const variantId of variantIds) {
      const v = known.find((x) => x.id === variantId);
      if (!v || v.archived || v.applicationId !== appId) throw refuse('human_evaluation_variant_not_found', HUMAN_EVALUATION_VARIANT_NOT_FOUND);
      if (!v.currentRevisionId) throw refuse('human_evaluation_revision_mismatch', HUMAN_EVALUATION_REVISION_MISMATCH);
      variants.push({ variant_id: v.id, revision_id: v.currentRevisionId });
    }
    const rows = await readEvaluationRows(pool, testsetId);
    const scenarios = rows.map((row) => {
      const missing = body.inputs.some((name) => !Object.hasOwn(row.data, name));
      if (missing) throw rowMismatch(body.inputs, row);
      return {
        scenario_id: uuidv7(),
        inputs_json: JSON.stringify(body.inputs.map((name) => ({ input_name: name, input_value: row.data[name] }))),
        correct_answer: answerText(row.data.correct_answer),
      };
    });
    const id = uuidv7();
    // The aggregate decides again on the ordered log (a variant committed meanwhile: 400 mismatch).
    // One evaluation run of the organization's quota, reserved before the append and given back if
    // the evaluation is not recorded (refused by the aggregate, or the append failed).
    await deps.quota.evaluation(req.scope.organizationId, async () => await commands.run(req, {
      type: 'accounts.human_evaluation.created', key: evaluationsKey(projectId), meta: { aggregateId: `human_evaluation:${id}` }, payload: {
      evaluation_id: id, project_id: projectId, app_id: appId, evaluation_type: body.evaluation_type, status: body.status, testset_id: testsetId,
      variants, scenarios,
    } }));
    res.status(200).json({ id, variant_ids: variants.map((v) => v.variant_id), app_id: appId, status: body.status, evaluation_type: body.evaluation_type });
  };

  return {
    'human_evaluations.create': [...guards.createEvaluations, createEvaluation],
  };
}
