// Given/when/then of the application, testset and human evaluation aggregates: applications and
// testsets are created in a project that exists with a slug free in it; revisions are numbered in
// sequence per variant; an evaluation needs its project's application and testset and, for each
// variant, a live variant of that application linked to its current revision.
import { describe, expect, it } from 'vitest';
import { application, type ApplicationState } from '../src/aggregates/application.ts';
import { testset } from '../src/aggregates/testset.ts';
import { humanEvaluation, type HumanEvaluationState } from '../src/aggregates/human-evaluation.ts';
import type { AccountEvent } from '../src/account-event.ts';
import { ev, given } from './support/given.ts';

const P1 = '00000000-0000-4000-8000-0000000000a1';
const P2 = '00000000-0000-4000-8000-0000000000a2';
const A1 = '00000000-0000-7000-8000-0000000000b1';
const V1 = '00000000-0000-7000-8000-0000000000c1';
const V2 = '00000000-0000-7000-8000-0000000000c2';
const R1 = '00000000-0000-7000-8000-0000000000d1';
const T1 = '00000000-0000-7000-8000-0000000000e1';
const E1 = '00000000-0000-7000-8000-0000000000f1';
const projects: ApplicationState = { projects: [{ id: P1 }, { id: P2 }], applications: [], variants: [] };

type AppInfo = AccountEvent<'accounts.application.created'>['payload']['application'];
const appCreated = (o: Partial<AppInfo> = {}) => ev('accounts.application.created', {
  application: { application_id: A1, project_id: P1, slug: 'app', name: 'App', description: '', tags_json: '', meta_json: '', flags_json: '', data_json: '', ...o },
  variant_id: V1, variant_slug: 'abcdefabcdef', revision0_id: R1, revision_id: R1,
});
const variantCreated = (o: Partial<AccountEvent<'accounts.application.variant_created'>['payload']> = {}) => ev('accounts.application.variant_created', {
  variant_id: V2, application_id: A1, project_id: P1, slug: 'b', name: 'B', flags_json: '', tags_json: '', ...o,
});
const committed = (version: number, o: Partial<AccountEvent<'accounts.application.revision_committed'>['payload']> = {}) => ev('accounts.application.revision_committed', {
  revision_id: R1, variant_id: V2, application_id: A1, project_id: P1, slug: '', message: '', data_json: '', version, ...o,
});

describe('application aggregate', () => {
  it('given a project, when an application is created, then it exists with its first variant at revision 1', () => {
    const t = given(application, [], projects).when(appCreated());
    expect(t.decision.status).toBe('accepted');
    expect(t.state.variants).toEqual([{ id: V1, applicationId: A1, projectId: P1, slug: 'abcdefabcdef', current: 1 }]);
  });

  it('given an application, when another takes its slug in the same project, then it is refused; in another project it is not', () => {
    const g = given(application, [appCreated()], projects);
    expect(g.when(appCreated({ application_id: V2 })).decision).toMatchObject({ status: 'rejected', code: 'application_slug_taken' });
    expect(g.when(appCreated({ application_id: V2, project_id: P2 })).decision.status).toBe('accepted');
    expect(g.when(appCreated()).decision).toMatchObject({ code: 'application_exists' });
  });

  it('given no such project, when an application is created, then it is refused', () => {
    expect(given(application, [], { ...projects, projects: [] }).when(appCreated()).decision).toMatchObject({ code: 'application_project_not_found' });
  });

  it('given a new variant, when revisions are committed, then they are numbered 0, 1, … and a taken number is a conflict', () => {
    const g = given(application, [appCreated(), variantCreated()], projects);
    expect(g.state.variants.find((v) => v.id === V2)?.current).toBeNull();
    expect(g.when(committed(1)).decision).toMatchObject({ code: 'application_revision_changed' });
    const after = given(application, [appCreated(), variantCreated(), committed(0), committed(1)], projects);
    expect(after.state.variants.find((v) => v.id === V2)?.current).toBe(1);
    expect(after.when(committed(1)).decision).toMatchObject({ code: 'application_revision_changed' });
  });

  it('given an application of another project, when a variant or a commit names it, then it is not found', () => {
    const g = given(application, [appCreated()], projects);
    expect(g.when(variantCreated({ project_id: P2 })).decision).toMatchObject({ code: 'application_not_found' });
    expect(g.when(variantCreated({ slug: 'abcdefabcdef' })).decision).toMatchObject({ code: 'application_variant_slug_taken' });
    expect(g.when(committed(0)).decision).toMatchObject({ code: 'application_variant_not_found' });
  });
});

const testsetCreated = (o: Partial<AccountEvent<'accounts.testset.created'>['payload']> = {}) => ev('accounts.testset.created', {
  testset_id: T1, project_id: P1, slug: 'ts', name: 'T', description: '', tags_json: '', meta_json: '', variant_id: V1, revision_id: R1,
  testcases: [{ testcase_id: E1, data_json: '{"q":"1"}' }], ...o,
});

describe('testset aggregate', () => {
  it('given a project, when a testset is created, then it exists; its slug is then taken in that project only', () => {
    const start = { projects: [{ id: P1 }, { id: P2 }], testsets: [] };
    const g = given(testset, [testsetCreated()], start);
    expect(g.state.testsets).toEqual([{ id: T1, projectId: P1, slug: 'ts' }]);
    expect(g.when(testsetCreated({ testset_id: V2 })).decision).toMatchObject({ code: 'testset_slug_taken' });
    expect(g.when(testsetCreated({ testset_id: V2, project_id: P2 })).decision.status).toBe('accepted');
    expect(given(testset, [], { projects: [], testsets: [] }).when(testsetCreated()).decision).toMatchObject({ code: 'testset_project_not_found' });
  });
});

const world: HumanEvaluationState = {
  app: { id: A1, projectId: P1 }, testset: { id: T1, projectId: P1 },
  variants: [{ id: V1, applicationId: A1, archived: false, currentRevisionId: R1 }, { id: V2, applicationId: A1, archived: false, currentRevisionId: undefined }],
  evaluations: [],
};
type Evaluation = AccountEvent<'accounts.human_evaluation.created'>['payload'];
const evaluated = (o: Partial<Evaluation> = {}) => ev('accounts.human_evaluation.created', {
  evaluation_id: E1, project_id: P1, app_id: A1, evaluation_type: 'single_model_test', status: 'EVALUATION_INITIALIZED', testset_id: T1,
  variants: [{ variant_id: V1, revision_id: R1 }], scenarios: [{ scenario_id: V2, inputs_json: '[]', correct_answer: '' }], ...o,
});

describe('human evaluation aggregate', () => {
  it("given the project's application, testset and a variant at its current revision, when an evaluation is created, then it exists", () => {
    const t = given(humanEvaluation, [], world).when(evaluated());
    expect(t.decision.status).toBe('accepted');
    expect(t.state.evaluations).toEqual([{ id: E1 }]);
    expect(given(humanEvaluation, [evaluated()], world).when(evaluated()).decision).toMatchObject({ code: 'human_evaluation_exists' });
  });

  it("given an application or testset of another project, when an evaluation names it, then it is not found", () => {
    expect(given(humanEvaluation, [], world).when(evaluated({ project_id: P2 })).decision).toMatchObject({ code: 'human_evaluation_app_not_found' });
    const foreignTestset = { ...world, testset: { id: T1, projectId: P2 } };
    expect(given(humanEvaluation, [], foreignTestset).when(evaluated()).decision).toMatchObject({ code: 'human_evaluation_testset_not_found' });
  });

  it('given an unknown, archived or foreign variant, or one whose current revision is not the linked one, when an evaluation names it, then it is refused', () => {
    const g = given(humanEvaluation, [], world);
    expect(g.when(evaluated({ variants: [{ variant_id: T1, revision_id: R1 }] })).decision).toMatchObject({ code: 'human_evaluation_variant_not_found' });
    const archived = { ...world, variants: [{ id: V1, applicationId: A1, archived: true, currentRevisionId: R1 }] };
    expect(given(humanEvaluation, [], archived).when(evaluated()).decision).toMatchObject({ code: 'human_evaluation_variant_not_found' });
    expect(g.when(evaluated({ variants: [{ variant_id: V2, revision_id: R1 }] })).decision).toMatchObject({ code: 'human_evaluation_revision_mismatch' });
    expect(g.when(evaluated({ variants: [{ variant_id: V1, revision_id: V2 }] })).decision).toMatchObject({ code: 'human_evaluation_revision_mismatch' });
    expect(g.when(evaluated({ evaluation_type: 'other' })).decision).toMatchObject({ code: 'human_evaluation_type_invalid' });
  });
});
