// GET, PUT and DELETE /projects/{project_id}/redaction (issue 30): the project's redaction policy.
// A change is an accounts.redaction.policy_set event keyed `project:<id>:redaction` (a replay of the
// accounts topic restores it, version included); a custom pattern the linear-time engine cannot run
// is refused here with 400 `redaction_pattern_refused` before anything is recorded. Served by the
// command side, which applies the policy at ingest and drops its cached copy on a change.
import type { Request, RequestHandler } from 'express';
import { parseUuid, readRedactionPolicy, redactionKey, refuse } from '@llm/account-model';
import { redactionPolicyBody, redactionPolicyResponse, type RedactionPolicyResponse } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { RequestValidationError, validate, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { compilePolicy } from '@llm/redaction';
import type { AccountCommands } from '../adapters/account-commands.ts';
import type { RedactionPolicies } from '../adapters/redaction-policies.ts';

export interface RedactionRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  policies: RedactionPolicies;
}

export function redactionRoutes(deps: RedactionRouteDeps, view: RequestHandler[], edit: RequestHandler[]): Handlers {
  /** The path's project: a credential acts in one project, so another one, existing or not, is not found. */
  const projectOf = (req: Request): string => {
    const id = parseUuid(String(req.params.project_id ?? ''));
    if (id === undefined) throw new RequestValidationError([{ loc: ['path', 'project_id'], msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
    if (id !== req.scope.projectId.toLowerCase()) throw refuse('project_not_found', 'Project not found');
    return id;
  };

  const answer = async (projectId: string): Promise<RedactionPolicyResponse> => {
    const row = await readRedactionPolicy(deps.pool, projectId);
    if (!row) return { project_id: projectId, version: 0, policy: null, updated_at: null };
    return redactionPolicyResponse.parse({ project_id: row.project_id, version: row.version, policy: row.policy, updated_at: row.updated_at.toISOString() });
  };

  const record = async (req: Request, projectId: string, policyJson: string): Promise<void> => {
    await deps.commands.run(req, { type: 'accounts.redaction.policy_set', key: redactionKey(projectId), payload: { project_id: projectId, policy_json: policyJson }, meta: { projectId } });
    deps.policies.invalidate(projectId);
  };

  return {
    'projects.redaction.fetch': [...view, async (req, res) => {
      res.json(await answer(projectOf(req)));
    }],
    'projects.redaction.set': [...view, ...edit, async (req, res) => {
      const projectId = projectOf(req);
      const policy = validate(redactionPolicyBody, req.body);
      const compiled = compilePolicy({ version: 0, policy });
      if (!compiled.ok) {
        throw invalid('redaction_pattern_refused', `${compiled.field}: ${compiled.reason}.`, { field: compiled.field });
      }
      await record(req, projectId, JSON.stringify(policy));
      res.json(await answer(projectId));
    }],
    'projects.redaction.delete': [...view, ...edit, async (req, res) => {
      const projectId = projectOf(req);
      await record(req, projectId, '');
      res.json(await answer(projectId));
    }],
  };
}
