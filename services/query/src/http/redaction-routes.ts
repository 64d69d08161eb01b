// GET /projects/{project_id}/redaction (issue 30): the caller's project's redaction policy as
// stored (version 0 and no policy when none was set). Its writes are the command side's.
import type { RequestHandler } from 'express';
import { redactionPolicyAnswer } from '@llm/account-model';
import { callerProjectParam, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function redactionRoutes(pool: Pool, view: RequestHandler[]): Handlers {
  return {
    'projects.redaction.fetch': [...view, async (req, res) => {
      res.json(await redactionPolicyAnswer(pool, callerProjectParam(req.params, req.scope.projectId)));
    }],
  };
}
