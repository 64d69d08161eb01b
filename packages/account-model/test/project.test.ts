// Given/when/then of the project aggregate: an operator's projects live in an existing organization's
// own workspace, and the organization's default project goes only with the organization.
import { describe, expect, it } from 'vitest';
import { project, REJECTION_KINDS, type Decision, type ProjectState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

const ORG = '00000000-0000-4000-8000-00000000000a';
const OTHER = '00000000-0000-4000-8000-00000000000b';
const WS = '00000000-0000-4000-8000-0000000000a1';
const PRJ = '00000000-0000-4000-8000-0000000000c1';
const world: ProjectState = { organization: { id: ORG }, workspace: { id: WS, organizationId: ORG } };
const created = (isDefault = false, workspace = WS) =>
  ev('accounts.project.created', { organization_id: ORG, workspace_id: workspace, project: { id: PRJ, name: 'P', slug: 'p' }, is_default: isDefault });
const deleted = (id = PRJ) => ev('accounts.project.deleted', { organization_id: ORG, project_id: id });
const codeOf = (d: Decision): string | undefined => (d.status === 'rejected' ? d.code : undefined);
/** The world with project PRJ of the organization, its default project or not. */
const withProject = (isDefault = false): ProjectState => ({ ...world, project: { id: PRJ, organizationId: ORG, isDefault } });

describe('project aggregate', () => {
  it('given an organization and its workspace, when a project is created and deleted, then both are accepted', () => {
    expect(decideOn(project, world, created()).status).toBe('accepted');
    expect(decideOn(project, withProject(), deleted()).status).toBe('accepted');
  });

  it('given no organization, a missing workspace or another organization\'s workspace, when a project is created, then 404, 404, 400', () => {
    expect(codeOf(decideOn(project, {}, created()))).toBe('project_organization_not_found');
    expect(codeOf(decideOn(project, { organization: { id: ORG } }, created()))).toBe('project_workspace_not_found');
    expect(codeOf(decideOn(project, { ...world, workspace: { id: WS, organizationId: OTHER } }, created()))).toBe('project_workspace_elsewhere');
  });

  it('given a project, when it is created again, then 409', () => {
    expect(codeOf(decideOn(project, withProject(), created()))).toBe('project_exists');
  });

  it('given the default project, when it is deleted, then 400; an unknown project → 404', () => {
    expect(codeOf(decideOn(project, withProject(true), deleted()))).toBe('project_default_kept');
    expect(codeOf(decideOn(project, world, deleted()))).toBe('project_not_found');
  });

  it('given a project, when its retention is set, then it is accepted (0 = the plan\'s), default or not', () => {
    const set = (m: number, id = PRJ) => ev('accounts.project.retention_set', { organization_id: ORG, project_id: id, retention_minutes: m });
    for (const m of [60, 0]) {
      expect(decideOn(project, withProject(true), set(m)).status).toBe('accepted');
    }
    expect(codeOf(decideOn(project, withProject(), set(-1)))).toBe('project_retention_invalid');
    expect(codeOf(decideOn(project, withProject(), set(1.5)))).toBe('project_retention_invalid');
    expect(codeOf(decideOn(project, world, set(60)))).toBe('project_not_found');
  });

  it('rejection kinds', () => {
    for (const [code, kind] of Object.entries(project.rejections)) expect(REJECTION_KINDS[code as keyof typeof REJECTION_KINDS]).toBe(kind);
  });
});
