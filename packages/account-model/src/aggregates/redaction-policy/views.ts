// How a project's redaction policy reads to a client (GET, PUT and DELETE /projects/{id}/redaction),
// for the command's writes and the query service's read alike.
import { redactionPolicyResponse, type RedactionPolicyResponse } from '@llm/contracts';
import type { Queryable } from '../../queryable.ts';
import { readRedactionPolicy } from './reads.ts';

/** The project's policy as stored now (version 0 and no policy when none was ever set). */
export async function redactionPolicyAnswer(q: Queryable, projectId: string): Promise<RedactionPolicyResponse> {
  const row = await readRedactionPolicy(q, projectId);
  if (!row) return { project_id: projectId, version: 0, policy: null, updated_at: null };
  return redactionPolicyResponse.parse({ project_id: row.project_id, version: row.version, policy: row.policy, updated_at: row.updated_at.toISOString() });
}
