// Human evaluations end to end (reference accounts §12, compat §4): an application made through
// the simple route (first variant at revision 1), a second variant with its first commit
// (revision "0"), a testset, then POST and GET /human-evaluations — scenarios from the rows, every
// documented error with nothing persisted on failure, and tenancy: another project's key neither
// sees nor uses this project's application or testset.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let a: TestAccount;
let b: TestAccount;
let db: pg.Pool;
beforeAll(async () => {
  t = await startTestApp();
  [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
});
afterAll(async () => { await db?.end(); await t?.stop(); });

async function call(method: string, path: string, acc: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const marker = (): string => randomBytes(6).toString('hex');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ZERO = '00000000-0000-0000-0000-000000000000';

interface Setup { appId: string; v1: string; r1: string; v2: string; r2: string; testsetId: string; appName: string; testsetName: string }

/** An application (variant 1 at revision 1), a second variant committed once (revision 0), a testset of three rows. */
async function setup(acc: TestAccount, rows: Array<Record<string, unknown>> = [
  { country: 'France', correct_answer: 'Paris' }, { country: 'Spain' }, { country: 'Spain' },
]): Promise<Setup> {
  const appName = `app ${marker()}`;
  const app = await call('POST', '/simple/applications/', acc, {
    application: { slug: `app-${marker()}`, name: appName, data: { uri: 'agenta:custom:mock:v0', parameters: { key: 'k', kwargs: {} } } },
  });
  expect(app.status).toBe(200);
  const variant = await call('POST', '/applications/variants/', acc, { application_variant: { slug: `b-${marker()}`, name: 'variant b', application_id: app.body.application.id } });
  expect(variant.status).toBe(200);
  const commit = await call('POST', '/applications/revisions/commit', acc, {
    application_revision: { application_id: app.body.application.id, application_variant_id: variant.body.application_variant.id, message: 'first', data: { parameters: { x: 1 } } },
  });
  expect(commit.status).toBe(200);
  const testsetName = `set ${marker()}`;
  const ts = await call('POST', '/simple/testsets/', acc, { testset: { slug: `ts-${marker()}`, name: testsetName, data: { testcases: rows.map((data) => ({ data })) } } });
  expect(ts.status).toBe(200);
  return {
    appId: app.body.application.id, v1: app.body.application.variant_id, r1: app.body.application.revision_id,
    v2: variant.body.application_variant.id, r2: commit.body.application_revision.id, testsetId: ts.body.testset.id, appName, testsetName,
  };
}

const evaluation = (s: Setup, extra: Record<string, unknown> = {}) => ({
  app_id: s.appId, variant_ids: [s.v1, s.v2], evaluation_type: 'human_a_b_testing', inputs: ['country'], testset_id: s.testsetId,
  status: 'EVALUATION_INITIALIZED', evaluation_type_settings: {}, ...extra,
});
const countEvaluations = async (appId: string): Promise<number> =>
  Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM human_evaluations WHERE app_id = $1', [appId])).rows[0]!.n);

describe('applications, variants, revisions and testsets (compat §4.2)', () => {
  it('when an application is created, then it has one variant named after it at revision 1, and it can be fetched', async () => {
    const slug = `app-${marker()}`;
    const r = await call('POST', '/simple/applications/', a, { application: { slug, name: 'My app', tags: { t: 1 }, data: { url: 'http://x.example/run' } } });
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(1);
    const app = r.body.application;
    expect(app).toMatchObject({ slug, name: 'My app', tags: { t: 1 }, data: { url: 'http://x.example/run' } });
    expect(app.id).toMatch(UUID);
    expect(app.variant_id).toMatch(UUID);
    expect(app.revision_id).toMatch(UUID);
    expect(app.flags).toMatchObject({ is_application: true, is_evaluator: false, has_url: true });
    const v = (await db.query('SELECT slug, name, latest_version FROM artifact_variants WHERE id = $1', [app.variant_id])).rows[0];
    expect(v).toMatchObject({ name: 'My app', latest_version: 1 });
    expect(v.slug).toMatch(/^[0-9a-f]{12}$/);
    const versions = (await db.query('SELECT version FROM artifact_revisions WHERE variant_id = $1 ORDER BY version', [app.variant_id])).rows.map((x) => x.version);
    expect(versions).toEqual([0, 1]);
    expect(await call('GET', `/simple/applications/${app.id}`, a)).toEqual({ status: 200, body: { count: 1, application: app } });
    // Another project's key: the reference's empty answer.
    expect(await call('GET', `/simple/applications/${app.id}`, b)).toEqual({ status: 200, body: { count: 0 } });
  });

  it('when the body is wrong, then 422 (unknown data key, missing slug) and a taken slug is a 409', async () => {
    expect((await call('POST', '/simple/applications/', a, { application: { slug: `x-${marker()}`, data: { nope: 1 } } })).status).toBe(422);
    expect((await call('POST', '/simple/applications/', a, { application: { name: 'no slug' } })).status).toBe(422);
    const slug = `dup-${marker()}`;
    expect((await call('POST', '/simple/applications/', a, { application: { slug } })).status).toBe(200);
    expect((await call('POST', '/simple/applications/', a, { application: { slug } })).status).toBe(409);
    // The same slug in another project is its own.
    expect((await call('POST', '/simple/applications/', b, { application: { slug } })).status).toBe(200);
  });

  it('when revisions are committed on a new variant, then they are numbered "0", "1"; an unknown application or variant is a 404', async () => {
    const app = (await call('POST', '/simple/applications/', a, { application: { slug: `app-${marker()}` } })).body.application;
    const v = (await call('POST', '/applications/variants/', a, { application_variant: { slug: 'v', application_id: app.id } })).body.application_variant;
    expect(v).toMatchObject({ slug: 'v', application_id: app.id });
    const commit = (body: Record<string, unknown>, acc = a) => call('POST', '/applications/revisions/commit', acc, { application_revision: { application_id: app.id, application_variant_id: v.id, ...body } });
    expect((await commit({})).body.application_revision.version).toBe('0');
    expect((await commit({ message: 'm' })).body.application_revision).toMatchObject({ version: '1', message: 'm' });
    expect((await commit({ application_variant_id: ZERO })).status).toBe(404);
    expect((await commit({}, b)).status).toBe(404);
    expect((await commit({ application_variant_id: 'nope' })).status).toBe(422);
    expect((await call('POST', '/applications/variants/', a, { application_variant: { slug: 'v', application_id: app.id } })).status).toBe(409);
    expect((await call('POST', '/applications/variants/', b, { application_variant: { slug: 'w', application_id: app.id } })).status).toBe(404);
  });

  it('when a testset is created, then its rows are kept in order with duplicates (each its own testcase), and other data keys are a 422', async () => {
    const rows = [{ column1: 'a', column2: 'b' }, { column1: 'a', column2: 'b' }, { column1: 'c', column2: 'd' }];
    const r = await call('POST', '/simple/testsets/', a, { testset: { slug: `ts-${marker()}`, name: 'T', description: 'd', meta: { m: 1 }, data: { testcases: rows.map((data) => ({ data })) } } });
    expect(r.status).toBe(200);
    const ts = r.body.testset;
    expect(ts).toMatchObject({ name: 'T', description: 'd', meta: { m: 1 } });
    // Each row gains its dedup id (reference evaluations §2.2), so duplicate rows stay distinct testcases.
    expect(ts.data.testcases.map((c: { data: Record<string, unknown> }) => { const { testcase_dedup_id: _d, ...rest } = c.data; return rest; })).toEqual(rows);
    for (const c of ts.data.testcases) expect(c).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), testset_id: ts.id, data: { testcase_dedup_id: expect.stringMatching(/^[0-9a-f]{12}$/) } });
    expect(new Set(ts.data.testcases.map((c: { id: string }) => c.id)).size).toBe(3);
    expect(ts.data.testcase_ids).toEqual(ts.data.testcases.map((c: { id: string }) => c.id));
    expect(ts.revision_id).toMatch(UUID);
    expect(ts.variant_id).toBeUndefined();
    const { revision_id: _r, ...fetched } = ts;
    expect(await call('GET', `/simple/testsets/${ts.id}`, a)).toEqual({ status: 200, body: { count: 1, testset: fetched } });
    expect(await call('GET', `/simple/testsets/${ts.id}`, b)).toEqual({ status: 200, body: { count: 0 } });
    expect((await call('POST', '/simple/testsets/', a, { testset: { slug: `ts-${marker()}`, data: { testcases: [], other: 1 } } })).status).toBe(422);
  });
});

describe('human evaluations (§12)', () => {
  it('when an A/B evaluation is created, then it answers its id, and GET lists it with variant names, revisions and the testset; one scenario per row', async () => {
    const s = await setup(a);
    const r = await call('POST', '/human-evaluations/', a, evaluation(s));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.stringMatching(UUID), variant_ids: [s.v1, s.v2], app_id: s.appId, status: 'EVALUATION_INITIALIZED', evaluation_type: 'human_a_b_testing' });
    const list = await call('GET', `/human-evaluations/?app_id=${s.appId}`, a);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{
      id: r.body.id, app_id: s.appId, project_id: a.projectId, evaluation_type: 'human_a_b_testing',
      variant_ids: [s.v1, s.v2], variant_names: [s.appName, 'variant b'], variants_revision_ids: [s.r1, s.r2], revisions: ['1', '0'],
      testset_id: s.testsetId, testset_name: s.testsetName, status: 'EVALUATION_INITIALIZED',
      created_at: expect.any(String), updated_at: expect.any(String),
    }]);
    const scenarios = (await db.query('SELECT inputs, vote, score, correct_answer FROM human_evaluation_scenarios WHERE evaluation_id = $1 ORDER BY position', [r.body.id])).rows;
    expect(scenarios).toEqual([
      { inputs: [{ input_name: 'country', input_value: 'France' }], vote: '', score: null, correct_answer: 'Paris' },
      { inputs: [{ input_name: 'country', input_value: 'Spain' }], vote: '', score: null, correct_answer: '' },
      { inputs: [{ input_name: 'country', input_value: 'Spain' }], vote: '', score: null, correct_answer: '' },
    ]);
    // A single-model test is scored; it is listed too.
    const single = await call('POST', '/human-evaluations', a, evaluation(s, { variant_ids: [s.v2], evaluation_type: 'single_model_test' }));
    expect(single.status).toBe(200);
    expect((await db.query('SELECT DISTINCT vote, score FROM human_evaluation_scenarios WHERE evaluation_id = $1', [single.body.id])).rows).toEqual([{ vote: null, score: '' }]);
    expect((await call('GET', `/human-evaluations?app_id=${s.appId}`, a)).body).toHaveLength(2);
  });

  it('when a request is wrong, then it gets the documented error and nothing is persisted', async () => {
    const s = await setup(a);
    const post = (extra: Record<string, unknown>) => call('POST', '/human-evaluations', a, evaluation(s, extra));
    expect(await post({ app_id: ZERO })).toEqual({ status: 404, body: { detail: 'App not found' } });
    expect(await post({ app_id: 'not-a-uuid' })).toEqual({ status: 400, body: { detail: 'badly formed hexadecimal UUID string' } });
    expect(await post({ testset_id: ZERO })).toEqual({ status: 404, body: { detail: 'Testset not found' } });
    expect(await post({ variant_ids: [s.v1, ZERO] })).toEqual({ status: 400, body: { detail: 'columns in the testset should match the names of the inputs in the variant' } });
    expect((await post({ variant_ids: ['zz'] })).status).toBe(400);
    expect((await post({ evaluation_type: 'other' })).status).toBe(422);
    expect((await post({ status: undefined })).status).toBe(422);
    const missing = await post({ inputs: ['country', 'city'] });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain("['country', 'city']");
    expect(missing.body.detail).toContain("['country']");
    // A variant with no revision: no matching revision.
    const bare = (await call('POST', '/applications/variants/', a, { application_variant: { slug: `c-${marker()}`, application_id: s.appId } })).body.application_variant;
    expect(await post({ variant_ids: [bare.id] })).toEqual({ status: 400, body: { detail: 'Mismatch between variants and their revisions' } });
    expect(await countEvaluations(s.appId)).toBe(0);
    expect((await call('GET', `/human-evaluations?app_id=${s.appId}`, a)).body).toEqual([]);
    expect((await call('GET', '/human-evaluations', a)).status).toBe(422);
    expect((await call('GET', `/human-evaluations?app_id=${ZERO}`, a)).status).toBe(404);
    expect((await call('GET', '/human-evaluations?app_id=bad', a)).status).toBe(400);
  });

  it("when another project's key is used, then it neither sees nor uses this project's application, variants or testset", async () => {
    const s = await setup(a);
    expect((await call('POST', '/human-evaluations', a, evaluation(s))).status).toBe(200);
    expect((await call('GET', `/human-evaluations?app_id=${s.appId}`, b)).status).toBe(404);
    expect(await call('POST', '/human-evaluations', b, evaluation(s))).toEqual({ status: 404, body: { detail: 'App not found' } });
    // b's own application with a's testset or a's variants.
    const own = await setup(b);
    expect((await call('POST', '/human-evaluations', b, evaluation(own, { testset_id: s.testsetId }))).status).toBe(404);
    expect((await call('POST', '/human-evaluations', b, evaluation(own, { variant_ids: [s.v1] }))).status).toBe(400);
    expect(await countEvaluations(own.appId)).toBe(0);
    expect(await countEvaluations(s.appId)).toBe(1);
  });
});

describe('the evaluations_run quota (reference accounts §2.3)', () => {
  it('given a hobby organization (20 evaluations a month, strict), when it creates a 21st, then 429 and nothing is stored; usage shows 20', async () => {
    const hobby = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    const s = await setup(hobby, [{ country: 'France' }]);
    const statuses = await Promise.all(Array.from({ length: 24 }, async () => (await call('POST', '/human-evaluations', hobby, evaluation(s))).status));
    expect(statuses.filter((x) => x === 200)).toHaveLength(20);
    const refused = await call('POST', '/human-evaluations', hobby, evaluation(s));
    expect(refused).toEqual({ status: 429, body: { detail: 'You have reached your monthly evaluations quota.' } });
    expect(await countEvaluations(s.appId)).toBe(20);
    const usage = await call('GET', '/billing/usage', hobby);
    expect(usage.body.evaluations_run).toMatchObject({ value: 20, limit: 20, strict: true, period: 'monthly' });
  });

  it('when an evaluation is refused by its rules, then it takes nothing from the quota', async () => {
    const hobby = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    const s = await setup(hobby, [{ country: 'France' }]);
    for (let i = 0; i < 25; i++) expect((await call('POST', '/human-evaluations', hobby, evaluation(s, { inputs: ['nope'] }))).status).toBe(400);
    expect((await call('POST', '/human-evaluations', hobby, evaluation(s))).status).toBe(200);
  });
});

describe('roles', () => {
  it('given a viewer of the project, when they list evaluations, then 200; when they create one or an application, then 403 and nothing is stored', async () => {
    const s = await setup(a);
    const viewer = await createAccount(t.baseUrl, t.adminToken);
    const admin = { Authorization: `Access ${t.adminToken}` };
    const grant = await fetch(`${t.baseUrl}/admin/simple/accounts/projects/memberships/`, {
      method: 'POST', headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ membership: { project_ref: { id: a.projectId }, user_ref: { id: viewer.userId }, role: 'viewer' } }),
    });
    expect(grant.status).toBe(200);
    const minted = await fetch(`${t.baseUrl}/admin/simple/accounts/api-keys/`, {
      method: 'POST', headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ options: { return_api_keys: true }, api_key: { project_ref: { id: a.projectId }, user_ref: { id: viewer.userId } } }),
    });
    const key = ((await minted.json()) as { accounts: Array<{ api_keys: { key: { value: string } } }> }).accounts[0]!.api_keys.key.value;
    const asViewer = { ...viewer, auth: { Authorization: `ApiKey ${key}` } };
    expect((await call('GET', `/human-evaluations?app_id=${s.appId}`, asViewer)).status).toBe(200);
    expect((await call('POST', '/human-evaluations', asViewer, evaluation(s))).status).toBe(403);
    expect(await countEvaluations(s.appId)).toBe(0);
    expect((await call('POST', '/simple/applications/', asViewer, { application: { slug: `v-${marker()}`, data: {} } })).status).toBe(403);
  });
});
