import { describe, expect, it } from 'vitest';
import { PERMISSIONS, ROLES, can, highestRole, type Permission } from '../src/permissions.ts';

describe('permissions', () => {
  // The whole matrix: a role holds a permission exactly when it ranks at or above the lowest holder.
  const expected: Record<Permission, string[]> = {
    view_spans: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    edit_spans: ['annotator', 'editor', 'developer', 'admin', 'owner'],
    view_secret: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    view_webhooks: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    view_billing: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    view_evaluation_runs: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    edit_evaluation_runs: ['annotator', 'editor', 'developer', 'admin', 'owner'],
    view_queries: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    edit_queries: ['editor', 'developer', 'admin', 'owner'],
    edit_secret: ['editor', 'developer', 'admin', 'owner'],
    edit_webhooks: ['editor', 'developer', 'admin', 'owner'],
    view_evaluation: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    create_evaluation: ['editor', 'developer', 'admin', 'owner'],
    view_applications: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    edit_applications: ['editor', 'developer', 'admin', 'owner'],
    view_testsets: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    edit_testsets: ['editor', 'developer', 'admin', 'owner'],
    view_evaluators: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    edit_evaluators: ['editor', 'developer', 'admin', 'owner'],
    view_workflows: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    edit_workflows: ['editor', 'developer', 'admin', 'owner'],
    view_environments: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    edit_environments: ['developer', 'admin', 'owner'],
    deploy_environments: ['developer', 'admin', 'owner'],
    view_annotations: ['viewer', 'annotator', 'editor', 'developer', 'admin', 'owner'],
    edit_annotations: ['annotator', 'editor', 'developer', 'admin', 'owner'],
    run_sessions: ['editor', 'developer', 'admin', 'owner'],
    use_mounts: ['editor', 'developer', 'admin', 'owner'],
    view_events: ['developer', 'admin', 'owner'],
    view_api_keys: ['developer', 'admin', 'owner'],
    edit_api_keys: ['developer', 'admin', 'owner'],
    edit_organization_auth: ['admin', 'owner'],
    edit_project: ['admin', 'owner'],
    edit_billing: ['owner'],
  };
  it.each(Object.keys(PERMISSIONS) as Permission[])('%s', (permission) => {
    expect(ROLES.filter((r) => can(r, permission))).toEqual(expected[permission]);
  });

  it('unknown or missing roles hold nothing; the highest known role counts', () => {
    expect(can(undefined, 'view_secret')).toBe(false);
    expect(can('superuser', 'view_secret')).toBe(false);
    expect(highestRole(['viewer', 'admin', 'editor'])).toBe('admin');
    expect(highestRole(['nobody'])).toBeUndefined();
  });
});
