// organizations created, handed over and deleted (rules: rules.ts).
// A delete removes the organization's rows here in one transaction: workspaces, projects (with their
// API keys, secrets and webhook subscriptions), SSO providers and the subscription go by foreign key;
// memberships have none (their scope is polymorphic) and are removed explicitly. Domains travel on
// their own keys: the command deletes them as accounts.domain.deleted events first.
import { eventTime } from '../../account-event.ts';
import { sameId } from '../ids.ts';
import type { OrganizationLifecycleEvent, OrganizationLifecycleState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

const IN_ORGANIZATION = `(
  (scope = 'organization' AND scope_id = $1)
  OR (scope = 'workspace' AND scope_id IN (SELECT id FROM workspaces WHERE organization_id = $1))
  OR (scope = 'project' AND scope_id IN (SELECT id FROM projects WHERE organization_id = $1)))`;

export function projectOrganizationLifecycle(e: OrganizationLifecycleEvent, s: OrganizationLifecycleState): SqlStatement[] {
  const at = eventTime(e);
  switch (e.type) {
    case 'accounts.organization.created': {
      const p = e.payload;
      const out: SqlStatement[] = [
        {
          text: 'INSERT INTO organizations (id, name, slug, description, owner_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
          values: [p.organization.id, p.organization.name, p.organization.slug, p.description || null, p.owner_id, at],
        },
        { text: 'INSERT INTO workspaces (id, organization_id, name, slug, created_at) VALUES ($1, $2, $3, $4, $5)', values: [p.workspace.id, p.organization.id, p.workspace.name, p.workspace.slug, at] },
        {
          text: 'INSERT INTO projects (id, workspace_id, organization_id, name, slug, is_default, created_at) VALUES ($1, $2, $3, $4, $5, true, $6)',
          values: [p.project.id, p.workspace.id, p.organization.id, p.project.name, p.project.slug, at],
        },
      ];
      for (const [scope, id] of [['organization', p.organization.id], ['workspace', p.workspace.id], ['project', p.project.id]] as const) {
        out.push({ text: 'INSERT INTO memberships (scope, scope_id, user_id, role, created_at) VALUES ($1, $2, $3, $4, $5)', values: [scope, id, p.owner_id, 'owner', at] });
      }
      if (p.organization.plan) {
        out.push({
          text: 'INSERT INTO organization_subscriptions (organization_id, plan, active, anchor, version, updated_at) VALUES ($1, $2, true, $3, 1, $4)',
          values: [p.organization.id, p.organization.plan, new Date(at).getUTCDate(), at],
        });
      }
      return out;
    }
    case 'accounts.organization.deleted': {
      const id = s.organization?.id;
      if (id === undefined) return [];
      return [
        { text: `DELETE FROM memberships WHERE ${IN_ORGANIZATION}`, values: [id] },
        { text: 'DELETE FROM organizations WHERE id = $1', values: [id] },
      ];
    }
    case 'accounts.organization.transferred': {
      const p = e.payload;
      const id = s.organization?.id;
      if (id === undefined) return [];
      const toRole = s.members.find((m) => sameId(m.userId, p.to_user_id))?.role ?? 'viewer';
      return [
        { text: 'UPDATE organizations SET owner_id = $2, updated_at = $3, version = version + 1 WHERE id = $1', values: [id, p.to_user_id, at] },
        // Where both are members (the organization, its workspaces and projects), the two swap roles.
        {
          text: `WITH pair AS (
                   SELECT a.scope, a.scope_id, a.role AS from_role, b.role AS to_role
                     FROM memberships a JOIN memberships b ON b.scope = a.scope AND b.scope_id = a.scope_id AND b.user_id = $3
                    WHERE a.user_id = $2 AND (
                      (a.scope = 'organization' AND a.scope_id = $1)
                      OR (a.scope = 'workspace' AND a.scope_id IN (SELECT id FROM workspaces WHERE organization_id = $1))
                      OR (a.scope = 'project' AND a.scope_id IN (SELECT id FROM projects WHERE organization_id = $1))))
                 UPDATE memberships m SET role = CASE WHEN m.user_id = $2 THEN pair.to_role ELSE pair.from_role END
                   FROM pair WHERE m.scope = pair.scope AND m.scope_id = pair.scope_id AND m.user_id IN ($2, $3)`,
          values: [id, p.from_user_id, p.to_user_id],
        },
        // Where only the former owner is, an `owner` role would outlive the transfer: it becomes the
        // role the new owner had in the organization (what the former owner now holds there).
        {
          text: `UPDATE memberships SET role = $4 WHERE user_id = $2 AND role = 'owner' AND ${IN_ORGANIZATION}
                    AND NOT EXISTS (SELECT 1 FROM memberships o WHERE o.scope = memberships.scope AND o.scope_id = memberships.scope_id AND o.user_id = $3)`,
          values: [id, p.from_user_id, p.to_user_id, toRole],
        },
      ];
    }
  }
}
