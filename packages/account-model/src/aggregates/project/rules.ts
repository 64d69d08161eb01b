// Projects an operator adds to an organization or removes from it (compat §2.3,
// /admin/simple/accounts/projects/). Keyed `organization:<id>` like the organization's own life, so
// a project's creation and its organization's deletion are decided in one order. An organization
// always keeps its default project: it goes only with the organization. A project may keep its data
// for less than its plan's retention (accounts.project.retention_set); the plan's bound is applied by
// the reader (the shorter of the two), so this rule needs no plan catalog.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision, type Rejection } from '../../decision.ts';
import { sameId } from '../ids.ts';

export type ProjectEventType = 'accounts.project.created' | 'accounts.project.deleted' | 'accounts.project.retention_set';
export type ProjectEvent = AccountEvent<ProjectEventType>;

/** The organization, workspace and project the event names, as they exist. */
export interface ProjectState {
  organization?: { id: string };
  workspace?: { id: string; organizationId: string };
  project?: { id: string; organizationId: string; isDefault: boolean };
}

export const PROJECT_REJECTIONS = {
  project_organization_not_found: 'not_found',
  project_workspace_not_found: 'not_found',
  project_workspace_elsewhere: 'invalid',
  project_exists: 'conflict',
  project_not_found: 'not_found',
  project_default_kept: 'invalid',
  project_retention_invalid: 'invalid',
  /** An organization's one workspace goes only with the organization (operator deletes). */
  workspace_kept: 'invalid',
} as const;
export type ProjectRejection = keyof typeof PROJECT_REJECTIONS;

/** The command-only rule of workspaces: one per organization, deleted only with it. */
export const workspaceKept = (workspaceId: string): Rejection<'workspace_kept'> =>
  reject('workspace_kept', `Workspace '${workspaceId}' is its organization's only workspace: it goes only with the organization.`, { ref: workspaceId });

export const projectRules = rules({
  eventTypes: ['accounts.project.created', 'accounts.project.deleted', 'accounts.project.retention_set'],
  rejections: PROJECT_REJECTIONS,

  decide(e: ProjectEvent, s: ProjectState): Decision<ProjectRejection> {
    const p = e.payload;
    if (!s.organization) return reject('project_organization_not_found', `Organization not found: ${p.organization_id}.`, { ref: p.organization_id });
    if (e.type === 'accounts.project.created') {
      const w = e.payload.workspace_id;
      if (!s.workspace) return reject('project_workspace_not_found', `Workspace not found: ${w}.`, { ref: w });
      if (!sameId(s.workspace.organizationId, p.organization_id)) {
        return reject('project_workspace_elsewhere', `Workspace '${w}' does not belong to organization '${p.organization_id}'.`, { ref: w });
      }
      if (s.project) return reject('project_exists', `Project '${e.payload.project.id}' already exists.`);
      return accepted;
    }
    const id = e.payload.project_id;
    if (!s.project || !sameId(s.project.organizationId, p.organization_id)) return reject('project_not_found', `Project not found: ${id}.`, { ref: id });
    if (e.type === 'accounts.project.retention_set') {
      const m = e.payload.retention_minutes;
      if (!Number.isInteger(m) || m < 0) return reject('project_retention_invalid', `retention_minutes must be a whole number of minutes, 0 or more (got ${m}).`, { ref: id });
      return accepted;
    }
    if (s.project.isDefault) {
      return reject('project_default_kept', `Project '${id}' is its organization's default project: it goes only with the organization.`, { ref: id });
    }
    return accepted;
  },
});
