// The reads of human evaluations (reference accounts §12): GET /human-evaluations?app_id= (404 for an
// application unknown in the caller's project, where the reference fails with a 500). The
// applications and testsets they name are artifacts (artifact-routes.ts). Written by the command
// side; the views are the aggregate's own (@llm/account-model).
import type { RequestHandler } from 'express';
import { HUMAN_EVALUATION_APP_NOT_FOUND, evaluationUuid, evaluationView, listHumanEvaluations, readEvaluationApp, refuse } from '@llm/account-model';
import { humanEvaluationList } from '@llm/contracts';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function humanEvaluationRoutes(deps: { pool: Pool }, guards: Guards<'viewEvaluations'>): Handlers {
  const { pool } = deps;
  const listEvaluations: RequestHandler = async (req, res) => {
    const q = validate(humanEvaluationList, req.query, 'query');
    const appId = evaluationUuid(q.app_id);
    const app = await readEvaluationApp(pool, appId);
    if (!app || app.projectId !== req.scope.projectId) throw refuse('human_evaluation_app_not_found', HUMAN_EVALUATION_APP_NOT_FOUND);
    res.status(200).json((await listHumanEvaluations(pool, req.scope.projectId, appId)).map(evaluationView));
  };
  return { 'human_evaluations.list': [...guards.viewEvaluations, listEvaluations] };
}
