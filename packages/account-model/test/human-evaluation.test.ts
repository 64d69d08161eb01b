// Given/when/then of the application, testset and human evaluation aggregates: applications and
// testsets are created in a project that exists with a slug free in it; revisions are numbered in
// sequence per variant; an evaluation needs its project's application and testset and, for each
// variant, a live variant of that application linked to its current revision.
import { describe, expect, it } from 'vitest';
import { application, humanEvaluation, testset, type AccountEvent, type ApplicationState, type ApplicationVariantRef, type HumanEvaluationState, type TestsetState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

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

/** Project P1's application A1 (slug app) with its first variant V1 at revision 1. */
const firstVariant: ApplicationVariantRef = { id: V1, applicationId: A1, projectId: P1, slug: 'abcdefabcdef', current: 1 };
const withApp: ApplicationState = { ...projects, applications: [{ id: A1, projectId: P1, slug: 'app' }], variants: [firstVariant] };
/** …and a second variant V2 (slug b) at revision `current` (null: none committed yet). */
const withVariant = (current: number | null): ApplicationState => ({
  ...withApp, variants: [firstVariant, { id: V2, applicationId: A1, projectId: P1, slug: 'b', current }],
});

describe('application aggregate', () => {
  it('given a project, when an application is created, then it is accepted', () => {
    expect(decideOn(application, projects, appCreated()).status).toBe('accepted');
  });

  it('given an application, when another takes its slug in the same project, then it is refused; in another project it is not', () => {
    expect(decideOn(application, withApp, appCreated({ application_id: V2 }))).toMatchObject({ status: 'rejected', code: 'application_slug_taken' });
    expect(decideOn(application, withApp, appCreated({ application_id: V2, project_id: P2 })).status).toBe('accepted');
    expect(decideOn(application, withApp, appCreated())).toMatchObject({ code: 'application_exists' });
  });

  it('given no such project, when an application is created, then it is refused', () => {
    expect(decideOn(application, { ...projects, projects: [] }, appCreated())).toMatchObject({ code: 'application_project_not_found' });
  });

  it('given an application, when a variant is created, then it is accepted', () => {
    expect(decideOn(application, withApp, variantCreated()).status).toBe('accepted');
  });

  it('given a new variant, when revisions are committed, then they are numbered 0, 1, … and a taken number is a conflict', () => {
    expect(decideOn(application, withVariant(null), committed(0)).status).toBe('accepted');
    expect(decideOn(application, withVariant(null), committed(1))).toMatchObject({ code: 'application_revision_changed' });
    expect(decideOn(application, withVariant(0), committed(1)).status).toBe('accepted');
    expect(decideOn(application, withVariant(1), committed(1))).toMatchObject({ code: 'application_revision_changed' });
    expect(decideOn(application, withVariant(1), committed(2)).status).toBe('accepted');
  });

  it('given an application of another project, when a variant or a commit names it, then it is not found', () => {
    expect(decideOn(application, withApp, variantCreated({ project_id: P2 }))).toMatchObject({ code: 'application_not_found' });
    expect(decideOn(application, withApp, variantCreated({ slug: 'abcdefabcdef' }))).toMatchObject({ code: 'application_variant_slug_taken' });
    expect(decideOn(application, withApp, committed(0))).toMatchObject({ code: 'application_variant_not_found' });
  });
});

const testsetCreated = (o: Partial<AccountEvent<'accounts.testset.created'>['payload']> = {}) => ev('accounts.testset.created', {
  testset_id: T1, project_id: P1, slug: 'ts', name: 'T', description: '', tags_json: '', meta_json: '', variant_id: V1, revision_id: R1,
  testcases: [{ testcase_id: E1, data_json: '{"q":"1"}' }], ...o,
});

describe('testset aggregate', () => {
  it('given a project, when a testset is created, then it is accepted; its slug is then taken in that project only', () => {
    const start: TestsetState = { projects: [{ id: P1 }, { id: P2 }], testsets: [] };
    const withTestset: TestsetState = { ...start, testsets: [{ id: T1, projectId: P1, slug: 'ts' }] };
    expect(decideOn(testset, start, testsetCreated()).status).toBe('accepted');
    expect(decideOn(testset, withTestset, testsetCreated({ testset_id: V2 }))).toMatchObject({ code: 'testset_slug_taken' });
    expect(decideOn(testset, withTestset, testsetCreated({ testset_id: V2, project_id: P2 })).status).toBe('accepted');
    expect(decideOn(testset, withTestset, testsetCreated())).toMatchObject({ code: 'testset_exists' });
    expect(decideOn(testset, { projects: [], testsets: [] }, testsetCreated())).toMatchObject({ code: 'testset_project_not_found' });
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
  it("given the project's application, testset and a variant at its current revision, when an evaluation is created, then it is accepted; once it exists, again is human_evaluation_exists", () => {
    const withEvaluation: HumanEvaluationState = { ...world, evaluations: [{ id: E1 }] };
    expect(decideOn(humanEvaluation, world, evaluated()).status).toBe('accepted');
    expect(decideOn(humanEvaluation, withEvaluation, evaluated())).toMatchObject({ code: 'human_evaluation_exists' });
  });

  it("given an application or testset of another project, when an evaluation names it, then it is not found", () => {
    expect(decideOn(humanEvaluation, world, evaluated({ project_id: P2 }))).toMatchObject({ code: 'human_evaluation_app_not_found' });
    const foreignTestset = { ...world, testset: { id: T1, projectId: P2 } };
    expect(decideOn(humanEvaluation, foreignTestset, evaluated())).toMatchObject({ code: 'human_evaluation_testset_not_found' });
  });

  it('given an unknown, archived or foreign variant, or one whose current revision is not the linked one, when an evaluation names it, then it is refused', () => {
    expect(decideOn(humanEvaluation, world, evaluated({ variants: [{ variant_id: T1, revision_id: R1 }] }))).toMatchObject({ code: 'human_evaluation_variant_not_found' });
    const archived = { ...world, variants: [{ id: V1, applicationId: A1, archived: true, currentRevisionId: R1 }] };
    expect(decideOn(humanEvaluation, archived, evaluated())).toMatchObject({ code: 'human_evaluation_variant_not_found' });
    expect(decideOn(humanEvaluation, world, evaluated({ variants: [{ variant_id: V2, revision_id: R1 }] }))).toMatchObject({ code: 'human_evaluation_revision_mismatch' });
    expect(decideOn(humanEvaluation, world, evaluated({ variants: [{ variant_id: V1, revision_id: V2 }] }))).toMatchObject({ code: 'human_evaluation_revision_mismatch' });
    expect(decideOn(humanEvaluation, world, evaluated({ evaluation_type: 'other' }))).toMatchObject({ code: 'human_evaluation_type_invalid' });
  });
});
