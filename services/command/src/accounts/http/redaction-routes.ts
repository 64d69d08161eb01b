// PUT and DELETE /projects/{project_id}/redaction (issue 30): the project's redaction policy (its GET
// is the query service's).
// A change is an accounts.redaction.policy_set event keyed `project:<id>:redaction` (a replay of the
// accounts topic restores it, version included); a custom pattern the linear-time engine cannot run
// is refused here with 400 `redaction_pattern_refused` before anything is recorded. Served by the
// command side, which applies the policy at ingest and drops its cached copy on a change.
import type { Request } from 'express';
import { redactionKey, redactionPolicyAnswer } from '@llm/account-model';
import { redactionPolicyBody } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { callerProjectParam, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { compilePolicy } from '@llm/redaction';
import type { AccountCommands } from '../adapters/account-commands.ts';
import type { RedactionPolicies } from '../../ingest/adapters/redaction-policies.ts';

export interface RedactionRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  policies: RedactionPolicies;
}

export function redactionRoutes(deps: RedactionRouteDeps, guards: Guards<'view' | 'edit'>): Handlers {
  const projectOf = (req: Request): string => callerProjectParam(req.params, req.scope.projectId);

  const record = async (req: Request, projectId: string, policyJson: string): Promise<void> => {
    await deps.commands.run(req, { type: 'accounts.redaction.policy_set', key: redactionKey(projectId), payload: { project_id: projectId, policy_json: policyJson }, meta: { projectId } });
    deps.policies.invalidate(projectId);
  };

  return {
    'projects.redaction.set': [...guards.view, ...guards.edit, async (req, res) => {
      const projectId = projectOf(req);
      const policy = validate(redactionPolicyBody, req.body);
      const compiled = compilePolicy({ version: 0, policy });
      if (!compiled.ok) {
        throw invalid('redaction_pattern_refused', `${compiled.field}: ${compiled.reason}.`, { field: compiled.field });
      }
      await record(req, projectId, JSON.stringify(policy));
      res.json(await redactionPolicyAnswer(deps.pool, projectId));
    }],
    'projects.redaction.delete': [...guards.view, ...guards.edit, async (req, res) => {
      const projectId = projectOf(req);
      await record(req, projectId, '');
      res.json(await redactionPolicyAnswer(deps.pool, projectId));
    }],
  };
}
