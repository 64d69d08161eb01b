// Given/when/then of the first model's application and testset events (translated into artifact
// events: legacy-events.ts) and of the human evaluation aggregate: applications and testsets are
// created in a project that exists with a slug free in it (the first model's slug, before the
// suffix the translation adds); revisions are numbered in sequence per variant; an evaluation needs
// its project's application and testset and, for each variant, a live variant of that application
// linked to its current revision.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  applicationAsArtifact, humanEvaluation, legacyApplication, legacyTestset, legacyTestsetV0, testsetAsArtifact, type AccountEvent, type HumanEvaluationState, type LegacyState,
} from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

const P1 = '00000000-0000-4000-8000-0000000000a1';
const P2 = '00000000-0000-4000-8000-0000000000a2';
const A1 = '00000000-0000-7000-8000-0000000000b1';
const V1 = '00000000-0000-7000-8000-0000000000c1';
const V2 = '00000000-0000-7000-8000-0000000000c2';
const R0 = '00000000-0000-7000-8000-0000000000d0';
const R1 = '00000000-0000-7000-8000-0000000000d1';
const T1 = '00000000-0000-7000-8000-0000000000e1';
const E1 = '00000000-0000-7000-8000-0000000000f1';
const hex = (id: string): string => id.replace(/-/g, '');
/** Project P1 exists; nothing else. */
const empty: LegacyState = {
  projectExists: true, artifacts: [], takenSlugs: { artifact: [], variant: [], revision: [] }, revisions: [], storedTestcases: [], legacySlugTaken: false, idsTaken: false,
};

type AppInfo = AccountEvent<'accounts.application.created'>['payload']['application'];
const appCreated = (o: Partial<AppInfo> = {}) => ev('accounts.application.created', {
  application: { application_id: A1, project_id: P1, slug: 'app', name: 'App', description: '', tags_json: '', meta_json: '', flags_json: '{"x":1}', data_json: '{"uri":"u"}', ...o },
  variant_id: V1, variant_slug: 'abcdefabcdef', revision0_id: R0, revision_id: R1,
});
const variantCreated = (o: Partial<AccountEvent<'accounts.application.variant_created'>['payload']> = {}) => ev('accounts.application.variant_created', {
  variant_id: V2, application_id: A1, project_id: P1, slug: 'b', name: 'B', flags_json: '', tags_json: '', ...o,
});
const committed = (version: number, o: Partial<AccountEvent<'accounts.application.revision_committed'>['payload']> = {}) => ev('accounts.application.revision_committed', {
  revision_id: R1, variant_id: V2, application_id: A1, project_id: P1, slug: '', message: '', data_json: '', version, ...o,
});

/** Project P1's application A1 (a workflow) with variant V1 at version 1 and V2 at `v2` (-1: none committed yet). */
const withApp = (v2?: number, projectId = P1): LegacyState => ({
  ...empty,
  artifacts: [{ id: A1, projectId, family: 'workflow', variants: [{ id: V1, slug: 'x', latestVersion: 1 }, ...(v2 === undefined ? [] : [{ id: V2, slug: 'y', latestVersion: v2 }])] }],
});

describe('legacy application events (the artifact aggregate)', () => {
  it('given a project, when an application is created, then it is accepted as a workflow with its variant, revisions 0 and 1 and suffixed slugs', () => {
    expect(decideOn(legacyApplication, empty, appCreated()).status).toBe('accepted');
    const a = applicationAsArtifact(appCreated());
    expect(a).toMatchObject({
      type: 'accounts.artifact.created', projectId: P1,
      payload: {
        family: 'workflow', artifact_id: A1, slug: `app_${hex(A1)}`, header: { name: 'App', flags_json: '{"x":1}' },
        variants: [{
          variant_id: V1, slug: `abcdefabcdef_${hex(V1)}`, header: { name: 'App' },
          revisions: [{ revision_id: R0, slug: hex(R0), version: 0, data_json: '' }, { revision_id: R1, slug: hex(R1), version: 1, data_json: '{"uri":"u"}' }],
        }],
      },
    });
    // An empty slug is suffixed too (it was a slug there); a revision without one is its id in hex.
    expect(applicationAsArtifact(appCreated({ slug: '' })).payload).toMatchObject({ slug: `_${hex(A1)}` });
    expect(applicationAsArtifact(committed(0, { slug: 's' })).payload).toMatchObject({ revision: { slug: `s_${hex(R1)}` } });
    expect(applicationAsArtifact(committed(0)).payload).toMatchObject({ revision: { slug: hex(R1) } });
  });

  it('given an application, when another takes its slug in the same project, then it is refused; an existing id or a missing project too', () => {
    expect(decideOn(legacyApplication, { ...empty, legacySlugTaken: true }, appCreated())).toMatchObject({ status: 'rejected', code: 'application_slug_taken' });
    expect(decideOn(legacyApplication, withApp(), appCreated())).toMatchObject({ code: 'application_exists' });
    expect(decideOn(legacyApplication, { ...empty, projectExists: false }, appCreated())).toMatchObject({ code: 'application_project_not_found' });
  });

  it('given an application, when a variant is created, then it is accepted; its slug taken in the application is refused', () => {
    expect(decideOn(legacyApplication, withApp(), variantCreated()).status).toBe('accepted');
    expect(decideOn(legacyApplication, { ...withApp(), legacySlugTaken: true }, variantCreated())).toMatchObject({ code: 'application_variant_slug_taken' });
    expect(decideOn(legacyApplication, withApp(-1), variantCreated())).toMatchObject({ code: 'application_variant_exists' });
    // A variant id another application's variant has is taken too (the first model's key).
    expect(decideOn(legacyApplication, { ...withApp(), idsTaken: true }, variantCreated())).toMatchObject({ code: 'application_variant_exists' });
  });

  it('given a new variant, when revisions are committed, then they are numbered 0, 1, … and a taken number is a conflict', () => {
    expect(decideOn(legacyApplication, withApp(-1), committed(0)).status).toBe('accepted');
    expect(decideOn(legacyApplication, withApp(-1), committed(1))).toMatchObject({ code: 'application_revision_changed' });
    expect(decideOn(legacyApplication, withApp(0), committed(1)).status).toBe('accepted');
    expect(decideOn(legacyApplication, withApp(1), committed(1))).toMatchObject({ code: 'application_revision_changed' });
    expect(decideOn(legacyApplication, withApp(1), committed(2)).status).toBe('accepted');
  });

  it('given an application of another project, when a variant or a commit names it, then it is not found', () => {
    expect(decideOn(legacyApplication, withApp(undefined, P2), variantCreated())).toMatchObject({ code: 'application_not_found' });
    expect(decideOn(legacyApplication, empty, variantCreated())).toMatchObject({ code: 'application_not_found' });
    expect(decideOn(legacyApplication, withApp(), committed(0))).toMatchObject({ code: 'application_variant_not_found' });
    // Its project gone, the application was gone with it.
    expect(decideOn(legacyApplication, { ...withApp(-1), projectExists: false }, committed(0))).toMatchObject({ code: 'application_not_found' });
    expect(decideOn(legacyApplication, withApp(-1), committed(0, { variant_id: 'nope' }))).toMatchObject({ code: 'malformed_event' });
  });
});

const testsetCreated = (o: Partial<AccountEvent<'accounts.testset.created'>['payload']> = {}) => ev('accounts.testset.created', {
  testset_id: T1, project_id: P1, slug: 'ts', name: 'T', description: '', tags_json: '', meta_json: '', variant_id: V1, revision_id: R1,
  testcases: [{ testcase_id: E1, data_json: '{"q":"1"}' }, { testcase_id: V2, data_json: '{"q":"1"}' }], ...o,
});

describe('legacy testset events (the artifact aggregate)', () => {
  it('given a project, when a testset is created, then it is accepted: its rows stored, its variant with revision 0 (md5 of the revision id) and revision 1 naming the rows in order', () => {
    expect(decideOn(legacyTestset, empty, testsetCreated()).status).toBe('accepted');
    const { rows, testset } = testsetAsArtifact(testsetCreated());
    expect(rows.payload.testcases.map((t) => [t.id, t.data_json])).toEqual([[E1, '{"q":"1"}'], [V2, '{"q":"1"}']]);
    const v0 = legacyTestsetV0(R1);
    expect(hex(v0)).toBe(createHash('md5').update(`${R1}:v0`).digest('hex'));
    expect(testset.payload).toMatchObject({
      family: 'testset', slug: `ts_${hex(T1)}`,
      variants: [{ variant_id: V1, slug: hex(V1), revisions: [{ revision_id: v0, version: 0, data_json: '' }, { revision_id: R1, version: 1, data_json: JSON.stringify({ testcase_ids: [E1, V2] }) }] }],
    });
  });

  it('given a testset, when another takes its slug in the project, or its id, or the project is gone, then it is refused', () => {
    expect(decideOn(legacyTestset, { ...empty, legacySlugTaken: true }, testsetCreated())).toMatchObject({ code: 'testset_slug_taken' });
    expect(decideOn(legacyTestset, { ...empty, artifacts: [{ id: T1, projectId: P1, family: 'testset', variants: [] }] }, testsetCreated())).toMatchObject({ code: 'testset_exists' });
    expect(decideOn(legacyTestset, { ...empty, projectExists: false }, testsetCreated())).toMatchObject({ code: 'testset_project_not_found' });
    expect(decideOn(legacyTestset, { ...empty, idsTaken: true }, testsetCreated())).toMatchObject({ code: 'unstorable' });
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
