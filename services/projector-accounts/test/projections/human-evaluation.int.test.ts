// The application, testset and human evaluation projections' SQL against the real Postgres: the
// projector's verdicts are the aggregates' own on the state the readers load; the rows hold what was
// sent (testset rows and scenarios in order, duplicates kept), and the listing joins variant names,
// linked revisions and the testset's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AccountEvent } from '@llm/account-model';
import { listHumanEvaluations, readApplicationRevision, readApplicationVariant, readHumanEvaluationScenarios, readTestcases, readTestset } from '@llm/accounts-read';
import { uuidv7 } from '@llm/events';
import { ev as event, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

describe('application, testset and human evaluation projections (Postgres)', () => {
  it('stores each accepted fact and refuses what the aggregates refuse', async () => {
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
    const history: AccountEvent[] = [
      ev('accounts.application.created', { application: app, variant_id: v1, variant_slug: 'abcdefabcdef', revision0_id: r0, revision_id: r1 }),
      ev('accounts.application.created', { application: { ...app, application_id: uuidv7() }, variant_id: uuidv7(), variant_slug: 'x', revision0_id: uuidv7(), revision_id: uuidv7() }),
      ev('accounts.application.variant_created', { variant_id: v2, application_id: appId, project_id: projectId, slug: 'b', name: 'B', flags_json: '', tags_json: '' }),
      // An evaluation before v2 has a revision: no matching revision.
      ev('accounts.human_evaluation.created', { ...evaluation }),
      ev('accounts.application.revision_committed', { revision_id: r2, variant_id: v2, application_id: appId, project_id: projectId, slug: '', message: 'm', data_json: '', version: 1 }),
      ev('accounts.application.revision_committed', { revision_id: r2, variant_id: v2, application_id: appId, project_id: projectId, slug: '', message: 'm', data_json: '', version: 0 }),
      ev('accounts.testset.created', {
        testset_id: ts, project_id: projectId, slug: 'ts', name: 'T', description: '', tags_json: '', meta_json: '', variant_id: uuidv7(), revision_id: uuidv7(),
        testcases: rows.map((id, i) => ({ testcase_id: id, data_json: i === 2 ? '{"q":"1"}' : `{"q":"${i}"}` })),
      }),
      ev('accounts.human_evaluation.created', { ...evaluation, evaluation_id: evalId }),
      ev('accounts.human_evaluation.created', { ...evaluation, evaluation_id: uuidv7(), project_id: randomUUID() }),
    ];
    const verdicts: string[] = [];
    for (const e of history) {
      const [outcome] = await db.apply(e);
      verdicts.push(outcome!.status === 'applied' ? 'ok' : (outcome as { code: string }).code);
    }
    expect(verdicts).toEqual([
      'ok', 'application_slug_taken', 'ok', 'human_evaluation_testset_not_found', 'application_revision_changed', 'ok', 'ok', 'ok', 'human_evaluation_app_not_found',
    ]);
    expect(await readApplicationVariant(db.pool, projectId, v1)).toMatchObject({ name: 'App', slug: 'abcdefabcdef', revision: 1, created_by_id: userId });
    expect(await readApplicationRevision(db.pool, projectId, v1, 0)).toMatchObject({ id: r0, data: null });
    expect(await readApplicationRevision(db.pool, projectId, v1, 1)).toMatchObject({ id: r1, data: { uri: 'u' } });
    expect(await readApplicationVariant(db.pool, projectId, v2)).toMatchObject({ revision: 0 });
    expect(await readTestset(db.pool, projectId, ts)).toMatchObject({ name: 'T', slug: 'ts' });
    expect((await readTestcases(db.pool, ts)).map((r) => [r.id, r.data])).toEqual([[rows[0], { q: '0' }], [rows[1], { q: '1' }], [rows[2], { q: '1' }]]);
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
