// Who a write is on behalf of: a request's scope and id, or a stand-in for the user who started work
// the server does later (the evaluation worker, the live-run cron). Every write path that used to
// take the request takes this, so the server's own writes follow the same rules, quotas and log as a
// client's.
import type { Request } from 'express';
import { readProject, type Queryable } from '@llm/account-model';

export type Actor = Pick<Request, 'scope' | 'id'>;

/** A user acting in a project (its workspace and organization read back); undefined when the project is gone. */
export async function projectActor(q: Queryable, projectId: string, userId: string | null, id: string): Promise<Actor | undefined> {
  const p = await readProject(q, projectId);
  return p && { id, scope: { projectId: p.id, workspaceId: p.workspace_id, organizationId: p.organization_id, userId: userId ?? '', apiKeyId: '' } };
}
