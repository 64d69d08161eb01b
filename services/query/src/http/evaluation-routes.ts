// The reads of human evaluations and the simple applications and testsets they use (reference
// accounts §12, compat §4.2): GET /simple/applications/{id}, GET /simple/testsets/{id} (an unknown
// id keeps the reference's `{count: 0}`), GET /human-evaluations?app_id= (404 for an application
// unknown in the caller's project, where the reference fails with a 500). Written by the command
// side; the views are the aggregates' own (@llm/account-model).
import type { RequestHandler } from 'express';
import {
  HUMAN_EVALUATION_APP_NOT_FOUND, applicationAnswer, evaluationUuid, evaluationView, listHumanEvaluations, parseUuid, readApplication, readTestcases,
  readTestset, refuse, testsetView,
} from '@llm/account-model';
import { humanEvaluationList } from '@llm/contracts';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';


export function evaluationRoutes(deps: { pool: Pool }, guards: Guards<'viewApps' | 'viewEvaluations'>): Handlers {
  const { pool } = deps;
  const fetchApplication: RequestHandler = async (req, res) => {
    const id = parseUuid(String(req.params.application_id ?? ''));
    const app = id === undefined ? undefined : await readApplication(pool, req.scope.projectId, id);
    if (!app) { res.status(200).json({ count: 0 }); return; }
    res.status(200).json({ count: 1, application: await applicationAnswer(pool, req.scope.projectId, app) });
  };

  const fetchTestset: RequestHandler = async (req, res) => {
    const id = parseUuid(String(req.params.testset_id ?? ''));
    const row = id === undefined ? undefined : await readTestset(pool, req.scope.projectId, id);
    if (!row) { res.status(200).json({ count: 0 }); return; }
    res.status(200).json({ count: 1, testset: testsetView(row, await readTestcases(pool, row.id)) });
  };

  const listEvaluations: RequestHandler = async (req, res) => {
    const q = validate(humanEvaluationList, req.query, 'query');
    const appId = evaluationUuid(q.app_id);
    if (!await readApplication(pool, req.scope.projectId, appId)) throw refuse('human_evaluation_app_not_found', HUMAN_EVALUATION_APP_NOT_FOUND);
    res.status(200).json((await listHumanEvaluations(pool, req.scope.projectId, appId)).map(evaluationView));
  };

  return {
    'applications.simple.fetch': [...guards.viewApps, fetchApplication],
    'testsets.simple.fetch': [...guards.viewApps, fetchTestset],
    'human_evaluations.list': [...guards.viewEvaluations, listEvaluations],
  };
}
