// GET /projects/{project_id}/redaction (issue 30): the caller's project's redaction policy as
// stored (version 0 and no policy when none was set). Its writes are the command side's.
import { redactionPolicyAnswer } from '@llm/account-model';
import { callerProjectParam, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function redactionRoutes(deps: { pool: Pool }, guards: Guards<'view'>): Handlers {
  const { pool } = deps;
  return {
    'projects.redaction.fetch': [...guards.view, async (req, res) => {
      res.json(await redactionPolicyAnswer(pool, callerProjectParam(req.params, req.scope.projectId)));
    }],
  };
}
