// Given/when/then of the project aggregate: an operator's projects live in an existing organization's
// own workspace, and the organization's default project goes only with the organization.
import { describe, expect, it } from 'vitest';
import { project, type ProjectState } from '../src/aggregates/project.ts';
import { REJECTION_KINDS } from '../src/registry.ts';
import { ev, given } from './support/given.ts';

const ORG = '00000000-0000-4000-8000-00000000000a';
const OTHER = '00000000-0000-4000-8000-00000000000b';
const WS = '00000000-0000-4000-8000-0000000000a1';
const PRJ = '00000000-0000-4000-8000-0000000000c1';
const world: ProjectState = { organization: { id: ORG }, workspace: { id: WS, organizationId: ORG } };
const created = (isDefault = false, workspace = WS) =>
  ev('accounts.project.created', { organization_id: ORG, workspace_id: workspace, project: { id: PRJ, name: 'P', slug: 'p' }, is_default: isDefault });
const deleted = (id = PRJ) => ev('accounts.project.deleted', { organization_id: ORG, project_id: id });
const codeOf = (t: { decision: { status: string; code?: string } }): string | undefined => (t.decision.status === 'rejected' ? t.decision.code : undefined);

describe('project aggregate', () => {
  it('given an organization and its workspace, when a project is created and deleted, then both are accepted and the project is gone', () => {
    const g = given(project, [created()], world);
    expect(g.state.project).toEqual({ id: PRJ, organizationId: ORG, isDefault: false });
    const then = g.when(deleted());
    expect(then.decision.status).toBe('accepted');
    expect(then.state.project).toBeUndefined();
  });

  it('given no organization, a missing workspace or another organization\'s workspace, when a project is created, then 404, 404, 400', () => {
    expect(codeOf(given(project, [], {}).when(created()))).toBe('project_organization_not_found');
    expect(codeOf(given(project, [], { organization: { id: ORG } }).when(created()))).toBe('project_workspace_not_found');
    expect(codeOf(given(project, [], { ...world, workspace: { id: WS, organizationId: OTHER } }).when(created()))).toBe('project_workspace_elsewhere');
  });

  it('given a project, when it is created again, then 409', () => {
    expect(codeOf(given(project, [created()], world).when(created()))).toBe('project_exists');
  });

  it('given the default project, when it is deleted, then 400; an unknown project → 404', () => {
    expect(codeOf(given(project, [created(true)], world).when(deleted()))).toBe('project_default_kept');
    expect(codeOf(given(project, [], world).when(deleted()))).toBe('project_not_found');
  });

  it('given a project, when its retention is set, then it is accepted (0 = the plan\'s) and the project stays, default or not', () => {
    const set = (m: number, id = PRJ) => ev('accounts.project.retention_set', { organization_id: ORG, project_id: id, retention_minutes: m });
    for (const m of [60, 0]) {
      const then = given(project, [created(true)], world).when(set(m));
      expect(then.decision.status).toBe('accepted');
      expect(then.state.project).toEqual({ id: PRJ, organizationId: ORG, isDefault: true });
    }
    expect(codeOf(given(project, [created()], world).when(set(-1)))).toBe('project_retention_invalid');
    expect(codeOf(given(project, [created()], world).when(set(1.5)))).toBe('project_retention_invalid');
    expect(codeOf(given(project, [], world).when(set(60)))).toBe('project_not_found');
  });

  it('rejection kinds', () => {
    for (const [code, kind] of Object.entries(project.rejections)) expect(REJECTION_KINDS[code as keyof typeof REJECTION_KINDS]).toBe(kind);
  });
});
