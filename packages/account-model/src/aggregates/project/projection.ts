// projects an operator adds or removes (rules: rules.ts). A new default project
// takes the default from the organization's others; a removed project's keys, secrets, webhook
// subscriptions and evaluation data go by foreign key, its roles explicitly (their scope is
// polymorphic). Its spans are the span store's: they are purged from there afterwards. Its own
// retention (0 = the plan's) is read by every reader of its spans, events and deliveries.
import { eventTime } from '../../account-event.ts';
import type { ProjectEvent, ProjectState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

export function projectProject(e: ProjectEvent, _s: ProjectState): SqlStatement[] {
  if (e.type === 'accounts.project.created') {
    const p = e.payload;
    const out: SqlStatement[] = [{
      text: 'INSERT INTO projects (id, workspace_id, organization_id, name, slug, is_default, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      values: [p.project.id, p.workspace_id, p.organization_id, p.project.name, p.project.slug, p.is_default, eventTime(e)],
    }];
    if (p.is_default) out.push({ text: 'UPDATE projects SET is_default = false WHERE organization_id = $1 AND id <> $2', values: [p.organization_id, p.project.id] });
    return out;
  }
  if (e.type === 'accounts.project.retention_set') {
    return [{ text: 'UPDATE projects SET retention_minutes = $2 WHERE id = $1', values: [e.payload.project_id, e.payload.retention_minutes] }];
  }
  return [
    { text: "DELETE FROM memberships WHERE scope = 'project' AND scope_id = $1", values: [e.payload.project_id] },
    { text: 'DELETE FROM projects WHERE id = $1', values: [e.payload.project_id] },
  ];
}
