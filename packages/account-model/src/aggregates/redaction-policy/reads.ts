// The one reader of projects' redaction policies (redaction_policies, 0020-redaction-policies.sql):
// the aggregate's state, and the policy ingest applies.
import type { RedactionPolicyEvent, RedactionPolicyState } from './rules.ts';
import { existingProjects } from '../project/projects.ts';
import { asUuid, type Queryable } from '../../queryable.ts';

export interface RedactionPolicyRow {
  project_id: string;
  /** The policy as set (parsed JSON); null = none. */
  policy: unknown;
  version: number;
  updated_at: Date;
}

export async function readRedactionPolicy(q: Queryable, projectId: string): Promise<RedactionPolicyRow | undefined> {
  const r = await q.query<RedactionPolicyRow>(
    'SELECT project_id::text AS project_id, policy, version, updated_at FROM redaction_policies WHERE project_id = $1', [asUuid(projectId)]);
  return r.rows[0];
}

export async function loadRedactionPolicyState(q: Queryable, e: RedactionPolicyEvent): Promise<RedactionPolicyState> {
  const project = (await existingProjects(q, [e.payload.project_id])).length > 0;
  const row = project ? await readRedactionPolicy(q, e.payload.project_id) : undefined;
  return { project, version: row?.version ?? 0 };
}
