// The first model's application and testset events (projected into the artifact tables) and the
// human evaluation projection's SQL against the real Postgres: the projector's verdicts are the
// aggregates' own on the state the loaders return; the evaluation loader's state after each event
// is written out (the revisions an evaluation links, the testsets and evaluations that exist); the
// rows hold what was sent (testset rows and scenarios in order, duplicates kept), and the listing
// joins variant names, linked revisions and the testset's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { type AccountEvent, listHumanEvaluations, readArtifact, readEvaluationRows, readHumanEvaluationScenarios, readRevision, readVariant } from '@llm/account-model';
import { uuidv7 } from '@llm/events';
import { ev as event, openProjectionDb, type ProjectionDb, type Step } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

describe('application, testset and human evaluation projections (Postgres)', () => {
  it('given a project, when an application, its variants, revisions, a testset and an evaluation are created, then each loader returns what they lead to; refused events change nothing', async () => {
    const hex = randomBytes(4).toString('hex');
    const [userId, orgId, wsId, projectId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [appId, v1, v2, r0, r1, r2, ts, evalId] = [uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7()];
    const rows = [uuidv7(), uuidv7(), uuidv7()];
    const ev = (type: Parameters<typeof event>[0], payload: Parameters<typeof event>[1]): AccountEvent => event(type, payload, { actorId: userId });
    await db.apply(ev('accounts.account.provisioned', {
      user: { id: userId, email: `${hex}@x.org`, name: '', username: hex }, organization: { id: orgId, name: 'A', slug: `a-${hex}` },
      workspace: { id: wsId, name: 'W', slug: 'w' }, project: { id: projectId, name: 'P', slug: 'p' }, api_key: null,
    }));
    const app = {
      application_id: appId, project_id: projectId, slug: 'app', name: 'App', description: '', tags_json: '{"t":1}', meta_json: '', flags_json: '', data_json: '{"uri":"u"}',
    };
    const evaluation = {
      evaluation_id: evalId, project_id: projectId, app_id: appId, evaluation_type: 'human_a_b_testing', status: 'EVALUATION_INITIALIZED', testset_id: ts,
      variants: [{ variant_id: v1, revision_id: r1 }, { variant_id: v2, revision_id: r2 }],
      scenarios: rows.map((_, i) => ({ scenario_id: uuidv7(), inputs_json: JSON.stringify([{ input_name: 'q', input_value: String(i) }]), correct_answer: i === 0 ? 'a' : '' })),
    };
    const linked = (id: string, currentRevisionId: string | undefined) => ({ id, applicationId: appId, archived: false, currentRevisionId });
    const evaluated = (st: Step<'humanEvaluation'>) => ({ ...st, after: { ...st.after, variants: [...st.after.variants].sort((a, b) => a.id.localeCompare(b.id)) } });
    const both = (r2Id: string | undefined) => [linked(v1, r1), linked(v2, r2Id)].sort((a, b) => a.id.localeCompare(b.id));
    const testsetCreated = (id: string) => ev('accounts.testset.created', {
      testset_id: id, project_id: projectId, slug: 'ts', name: 'T', description: '', tags_json: '', meta_json: '', variant_id: uuidv7(), revision_id: uuidv7(),
      testcases: rows.map((row, i) => ({ testcase_id: id === ts ? row : uuidv7(), data_json: i === 2 ? '{"q":"1"}' : `{"q":"${i}"}` })),
    });

    // Each event, its verdict, and the state its aggregate's loader returns for it afterwards.
    // An application is created with its first variant at revision 1 (revisions 0 and 1 stored).
    const verdict = async (name: 'legacyApplication' | 'legacyTestset', e: AccountEvent): Promise<string> => (await db.step(name, e)).verdict;
    expect(await verdict('legacyApplication', ev('accounts.application.created', { application: app, variant_id: v1, variant_slug: 'abcdefabcdef', revision0_id: r0, revision_id: r1 }))).toBe('ok');
    expect(await verdict('legacyApplication', ev('accounts.application.created', {
      application: { ...app, application_id: uuidv7() }, variant_id: uuidv7(), variant_slug: 'x', revision0_id: uuidv7(), revision_id: uuidv7(),
    }))).toBe('application_slug_taken');
    // A new variant has no revision yet.
    expect(await verdict('legacyApplication', ev('accounts.application.variant_created', { variant_id: v2, application_id: appId, project_id: projectId, slug: 'b', name: 'B', flags_json: '', tags_json: '' }))).toBe('ok');
    // An evaluation before the testset exists (and before v2 has a revision).
    expect(evaluated(await db.step('humanEvaluation', ev('accounts.human_evaluation.created', { ...evaluation }))))
      .toEqual({ verdict: 'human_evaluation_testset_not_found', after: { app: { id: appId, projectId }, testset: undefined, variants: both(undefined), evaluations: [] } });
    const commit = (version: number) =>
      ev('accounts.application.revision_committed', { revision_id: r2, variant_id: v2, application_id: appId, project_id: projectId, slug: '', message: 'm', data_json: '', version });
    expect(await verdict('legacyApplication', commit(1))).toBe('application_revision_changed');
    expect(await verdict('legacyApplication', commit(0))).toBe('ok');
    expect(await verdict('legacyTestset', testsetCreated(ts))).toBe('ok');
    expect(await verdict('legacyTestset', testsetCreated(uuidv7()))).toBe('testset_slug_taken');
    // Each variant linked to its current revision: v1's r1, v2's r2.
    const ready = { app: { id: appId, projectId }, testset: { id: ts, projectId }, variants: both(r2) };
    expect(evaluated(await db.step('humanEvaluation', ev('accounts.human_evaluation.created', { ...evaluation, evaluation_id: evalId }))))
      .toEqual({ verdict: 'ok', after: { ...ready, evaluations: [{ id: evalId }] } });
    expect(evaluated(await db.step('humanEvaluation', ev('accounts.human_evaluation.created', { ...evaluation, evaluation_id: evalId }))))
      .toEqual({ verdict: 'human_evaluation_exists', after: { ...ready, evaluations: [{ id: evalId }] } });
    expect(evaluated(await db.step('humanEvaluation', ev('accounts.human_evaluation.created', { ...evaluation, evaluation_id: uuidv7(), project_id: randomUUID() }))))
      .toEqual({ verdict: 'human_evaluation_app_not_found', after: { ...ready, evaluations: [] } });
    const idHex = (id: string): string => id.replace(/-/g, '');
    expect(await readArtifact(db.pool, projectId, 'workflow', appId)).toMatchObject({ slug: `app_${idHex(appId)}`, name: 'App', flags: { is_application: true }, tags: { t: 1 } });
    expect(await readVariant(db.pool, projectId, 'workflow', { id: v1 })).toMatchObject({ name: 'App', slug: `abcdefabcdef_${idHex(v1)}`, latest_version: 1, created_by_id: userId });
    expect(await readRevision(db.pool, projectId, 'workflow', { id: r0 })).toMatchObject({ version: 0, data: null });
    expect(await readRevision(db.pool, projectId, 'workflow', { id: r1 })).toMatchObject({ version: 1, data: { uri: 'u' } });
    expect(await readVariant(db.pool, projectId, 'workflow', { id: v2 })).toMatchObject({ latest_version: 0 });
    expect(await readArtifact(db.pool, projectId, 'testset', ts)).toMatchObject({ name: 'T', slug: `ts_${idHex(ts)}` });
    expect((await readEvaluationRows(db.pool, ts)).map((r) => [r.id, r.data])).toEqual([[rows[0], { q: '0' }], [rows[1], { q: '1' }], [rows[2], { q: '1' }]]);
    const [listed] = await listHumanEvaluations(db.pool, projectId, appId);
    expect(listed).toMatchObject({
      id: evalId, variant_ids: [v1, v2], variant_names: ['App', 'B'], variants_revision_ids: [r1, r2], revisions: [1, 0], testset_name: 'T', status: 'EVALUATION_INITIALIZED',
    });
    expect((await readHumanEvaluationScenarios(db.pool, evalId)).map((s) => [s.inputs, s.vote, s.score, s.correct_answer])).toEqual([
      [[{ input_name: 'q', input_value: '0' }], '', null, 'a'], [[{ input_name: 'q', input_value: '1' }], '', null, ''], [[{ input_name: 'q', input_value: '2' }], '', null, ''],
    ]);
    // Another project lists nothing of it.
    expect(await listHumanEvaluations(db.pool, randomUUID(), appId)).toEqual([]);
  });
});
