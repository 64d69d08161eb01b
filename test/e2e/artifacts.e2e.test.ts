// The versioned-artifact model end to end (reference evaluations §1.2–§1.4, §2.2, §2.4–§2.7):
// testsets and the workflow family's views (applications, evaluators, workflows) through one
// implementation — simple create/edit/archive/query, variants and commits, retrieve by references
// with the reference's 400s, content-addressed testcases, concurrent commits, tenancy, and a simple
// evaluation whose run steps are built from the revisions it names.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let a: TestAccount;
let b: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
});
afterAll(async () => { await t?.stop(); });

async function call(method: string, path: string, acc: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const hex = (): string => randomBytes(5).toString('hex');
const rows = [{ country: 'France', correct_answer: 'Paris' }, { country: 'Spain', correct_answer: 'Madrid' }];
const testcasesOf = (data: Array<Record<string, unknown>>) => ({ testcases: data.map((d) => ({ data: d })) });

describe('testsets', () => {
  it('when a simple testset is created, then its rows are testcases named by content, its revision retrieves by id, slug or version, and an edit commits only on change', async () => {
    const slug = `caps-${hex()}`;
    const created = await call('POST', '/simple/testsets/', a, { testset: { slug, name: 'Capitals', tags: { team: 'x' }, data: testcasesOf(rows) } });
    expect(created.status).toBe(200);
    const ts = created.body.testset;
    expect(ts).toMatchObject({ slug, name: 'Capitals', tags: { team: 'x' }, revision_id: expect.any(String) });
    expect(ts.data.testcases).toHaveLength(2);

    const byId = await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { id: ts.id }, testset_revision_ref: null });
    expect(byId.status).toBe(200);
    const rev = byId.body.testset_revision;
    expect(rev).toMatchObject({ id: ts.revision_id, version: '1', testset_id: ts.id, artifact_id: ts.id, testset_slug: slug });
    expect(rev.data.testcases.map((c: { id: string }) => c.id)).toEqual(ts.data.testcase_ids);
    expect(byId.body.retrieval_info.references).toMatchObject({ testset: { id: ts.id, slug }, testset_revision: { id: ts.revision_id, version: '1' } });
    // By revision slug, and version 0 of the variant (the empty initial commit).
    expect((await call('POST', '/testsets/revisions/retrieve', a, { testset_revision_ref: { slug: rev.slug } })).body.testset_revision.id).toBe(rev.id);
    const v0 = await call('POST', '/testsets/revisions/retrieve', a, { testset_variant_ref: { id: rev.testset_variant_id }, testset_revision_ref: { version: '0' } });
    expect(v0.body.testset_revision).toMatchObject({ version: '0', message: 'Initial commit' });
    expect(v0.body.testset_revision.data).toBeUndefined();
    // Without testcases, only the ids.
    const idsOnly = await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { id: ts.id }, include_testcases: false });
    expect(idsOnly.body.testset_revision.data).toEqual({ testcase_ids: ts.data.testcase_ids });

    // The same rows again change nothing; a changed row commits version 2, and the unchanged row keeps its id.
    const same = await call('PUT', `/simple/testsets/${ts.id}`, a, { testset: { id: ts.id, data: testcasesOf(rows) } });
    expect(same.status).toBe(200);
    expect(same.body.testset).toMatchObject({ revision_id: ts.revision_id, name: 'Capitals', tags: { team: 'x' } });
    const changed = await call('PUT', `/simple/testsets/${ts.id}`, a, { testset: { id: ts.id, data: testcasesOf([rows[0]!, { country: 'Spain', correct_answer: 'Madrid!' }]) } });
    expect(changed.body.testset.revision_id).not.toBe(ts.revision_id);
    expect(changed.body.testset.data.testcase_ids[0]).toBe(ts.data.testcase_ids[0]);
    expect(changed.body.testset.data.testcase_ids[1]).not.toBe(ts.data.testcase_ids[1]);
    const latest = await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { slug } });
    expect(latest.body.testset_revision.version).toBe('2');
  });

  it('when references are inconsistent, only a version, or missing, then the reference\'s 400s and {count: 0}', async () => {
    const ts = (await call('POST', '/simple/testsets/', a, { testset: { slug: `r-${hex()}`, data: testcasesOf(rows) } })).body.testset;
    expect(await call('POST', '/testsets/revisions/retrieve', a, {})).toEqual({ status: 200, body: { count: 0 } });
    expect(await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { slug: `none-${hex()}` } })).toEqual({ status: 200, body: { count: 0 } });
    const versionOnly = await call('POST', '/testsets/revisions/retrieve', a, { testset_revision_ref: { version: '1' } });
    expect(versionOnly.status).toBe(400);
    expect(versionOnly.body.detail).toContain('testset_revision_ref.version is a per-variant sequence number');
    expect((await call('POST', '/testsets/revisions/retrieve', a, { testset_variant_ref: { version: '1' } })).status).toBe(400);
    const mismatch = await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { id: ts.id, slug: 'other' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.detail).toBe("testset_ref.slug='other' does not match resolved revision's artifact_slug='" + ts.slug + "'");
    // A version as a number is a 422, as in the reference.
    expect((await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { id: ts.id }, testset_revision_ref: { version: 1 } })).status).toBe(422);
  });

  it('when another project asks, then the testset is unknown; a taken slug is a 409; archive hides it from queries', async () => {
    const slug = `t-${hex()}`;
    const ts = (await call('POST', '/simple/testsets/', a, { testset: { slug, name: `Named ${slug}`, data: testcasesOf(rows) } })).body.testset;
    expect(await call('GET', `/simple/testsets/${ts.id}`, b)).toEqual({ status: 200, body: { count: 0 } });
    expect(await call('POST', '/testsets/revisions/retrieve', b, { testset_ref: { id: ts.id } })).toEqual({ status: 200, body: { count: 0 } });
    expect((await call('PUT', `/simple/testsets/${ts.id}`, b, { testset: { id: ts.id, data: testcasesOf(rows) } })).status).toBe(404);
    expect((await call('POST', '/simple/testsets/', a, { testset: { slug, data: testcasesOf(rows) } })).status).toBe(409);
    expect((await call('POST', '/simple/testsets/', b, { testset: { slug, data: testcasesOf(rows) } })).status).toBe(200);
    expect((await call('PUT', `/simple/testsets/${ts.id}`, a, { testset: { id: b.projectId, data: testcasesOf(rows) } })).status).toBe(400);

    const listed = await call('POST', '/simple/testsets/query', a, { testset: { name: `named ${slug}` } });
    expect(listed.body.testsets.map((x: { id: string }) => x.id)).toEqual([ts.id]);
    expect((await call('POST', `/simple/testsets/${ts.id}/archive`, a)).body.testset.deleted_at).toEqual(expect.any(String));
    expect((await call('POST', '/simple/testsets/query', a, { testset: { name: `named ${slug}` } })).body.count).toBe(0);
    expect((await call('POST', '/simple/testsets/query', a, { testset: { name: `named ${slug}` }, include_archived: true })).body.count).toBe(1);
    expect((await call('POST', `/simple/testsets/${ts.id}/unarchive`, a)).body.testset.deleted_at).toBeUndefined();
  });

  it('when two commits race on one variant, then each gets its own version and neither is lost', async () => {
    const ts = (await call('POST', '/simple/testsets/', a, { testset: { slug: `c-${hex()}`, data: testcasesOf(rows) } })).body.testset;
    const variantId = (await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { id: ts.id } })).body.testset_revision.testset_variant_id;
    const commits = await Promise.all([0, 1, 2, 3].map((i) => call('POST', '/testsets/revisions/commit', a, {
      testset_revision: { testset_id: ts.id, testset_variant_id: variantId, message: `c${i}`, data: testcasesOf([{ q: String(i) }]) },
    })));
    expect(commits.map((c) => c.status)).toEqual([200, 200, 200, 200]);
    expect(commits.map((c) => Number(c.body.testset_revision.version)).sort()).toEqual([2, 3, 4, 5]);
    for (const [i, c] of commits.entries()) expect(c.body.testset_revision.data.testcases.map((x: { data: unknown }) => x.data)).toEqual([{ q: String(i) }]);
  });
});

describe('testcases', () => {
  it('when testcases are read by id, by testset or by revision, then they come in the asked or stored order, paged, and only the project\'s', async () => {
    const many = Array.from({ length: 5 }, (_, i) => ({ n: i }));
    const ts = (await call('POST', '/simple/testsets/', a, { testset: { slug: `tc-${hex()}`, data: testcasesOf(many) } })).body.testset;
    const ids: string[] = ts.data.testcase_ids;
    const one = await call('GET', `/testcases/${ids[1]}`, a);
    expect(one.body).toMatchObject({ count: 1, testcase: { id: ids[1], testset_id: ts.id, data: { n: 1 } } });
    expect(await call('GET', `/testcases/${ids[1]}`, b)).toEqual({ status: 200, body: { count: 0 } });
    const listed = await call('GET', `/testcases/?testcase_id=${ids[3]}&testcase_ids=${ids[0]},${ids[3]}`, a);
    expect(listed.body.testcases.map((c: { id: string }) => c.id)).toEqual([ids[3], ids[0]]);
    expect((await call('GET', '/testcases/', a)).status).toBe(400);
    expect((await call('POST', '/testcases/query', a, {})).status).toBe(400);

    const page1 = await call('POST', '/testcases/query', a, { testset_ref: { id: ts.id }, windowing: { limit: 2 } });
    expect(page1.body.testcases.map((c: { id: string }) => c.id)).toEqual(ids.slice(0, 2));
    const page2 = await call('POST', '/testcases/query', a, { testset_ref: { id: ts.id }, windowing: page1.body.windowing });
    expect(page2.body.testcases.map((c: { id: string }) => c.id)).toEqual(ids.slice(2, 4));
    const byTestset = await call('POST', '/testcases/query', a, { testset_id: ts.id });
    expect(byTestset.body.testcases.map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort());
    expect((await call('POST', '/testcases/query', b, { testset_ref: { id: ts.id } })).body.count).toBe(0);
  });
});

describe('the workflow family: applications, evaluators, workflows', () => {
  it('when an application and an evaluator are created, then each is a workflow with its role flag, retrievable by slug, and lists never mix them', async () => {
    const app = (await call('POST', '/simple/applications/', a, { application: { slug: `app-${hex()}`, name: 'App', data: { uri: 'user:custom:my_module.fn:latest' } } })).body.application;
    expect(app.flags).toMatchObject({ is_application: true, is_evaluator: false, is_custom: true, is_managed: false });
    expect(app).toMatchObject({ variant_id: expect.any(String), revision_id: expect.any(String), data: { uri: 'user:custom:my_module.fn:latest' } });
    const evaluator = (await call('POST', '/simple/evaluators/', a, { evaluator: { slug: `ev-${hex()}`, name: 'Judge', data: { uri: 'agenta:builtin:auto_exact_match:v0', parameters: { correct_answer_key: 'correct_answer' } } } })).body.evaluator;
    expect(evaluator.flags).toMatchObject({ is_evaluator: true, is_application: false, is_managed: true, is_match: true });

    const retrieved = await call('POST', '/applications/revisions/retrieve', a, { application_ref: { id: null, slug: app.slug }, application_revision_ref: null, resolve: false });
    expect(retrieved.body.application_revision).toMatchObject({ id: app.revision_id, application_id: app.id, version: '1', data: { uri: 'user:custom:my_module.fn:latest' } });
    // An evaluator is not an application, and an unknown slug is {count: 0}; no references at all is a 400 here.
    expect(await call('POST', '/applications/revisions/retrieve', a, { application_ref: { slug: evaluator.slug } })).toEqual({ status: 200, body: { count: 0 } });
    expect(await call('POST', '/applications/revisions/retrieve', a, { application_ref: { slug: `none-${hex()}` } })).toEqual({ status: 200, body: { count: 0 } });
    expect((await call('POST', '/evaluators/revisions/retrieve', a, {})).status).toBe(400);
    expect((await call('GET', `/simple/evaluators/${evaluator.id}`, a)).body.evaluator).toMatchObject({ name: 'Judge', variant_id: evaluator.variant_id, revision_id: evaluator.revision_id });
    expect(await call('GET', `/simple/applications/${evaluator.id}`, a)).toEqual({ status: 200, body: { count: 0 } });
    const apps = (await call('POST', '/simple/applications/query', a, {})).body.applications.map((x: { id: string }) => x.id);
    expect(apps).toContain(app.id);
    expect(apps).not.toContain(evaluator.id);
    // The workflow view shows both.
    const workflows = (await call('POST', '/simple/workflows/query', a, {})).body.workflows.map((x: { id: string }) => x.id);
    expect(workflows).toEqual(expect.arrayContaining([app.id, evaluator.id]));
  });

  it('when an evaluator is edited, then a new name is refused, omitted data is kept, and an unknown agenta handler fails the commit', async () => {
    const ev = (await call('POST', '/simple/evaluators/', a, { evaluator: { slug: `ev-${hex()}`, name: 'Judge', data: { uri: 'agenta:builtin:auto_exact_match:v0' } } })).body.evaluator;
    const renamed = await call('PUT', `/simple/evaluators/${ev.id}`, a, { evaluator: { id: ev.id, name: 'Other' } });
    expect(renamed.status).toBe(400);
    expect(renamed.body.detail).toBe("Renaming evaluators is temporarily disabled. Current evaluator name is 'Judge'.");
    const edited = await call('PUT', `/simple/evaluators/${ev.id}`, a, { evaluator: { id: ev.id, name: 'Judge', description: 'exact' } });
    expect(edited.body.evaluator).toMatchObject({ description: 'exact', data: { uri: 'agenta:builtin:auto_exact_match:v0' } });
    expect(await call('PUT', `/simple/evaluators/${ev.id}`, a, { evaluator: { id: b.projectId } })).toEqual({ status: 200, body: { count: 0 } });
    expect((await call('POST', '/simple/evaluators/', a, { evaluator: { slug: `ev-${hex()}`, data: { uri: 'agenta:builtin:no_such_handler:v0' } } })).status).toBe(400);
    expect((await call('POST', '/simple/evaluators/', a, { evaluator: { slug: `ev-${hex()}`, data: { uri: 'x', unknown_key: 1 } } })).status).toBe(422);
  });
});

describe('simple evaluations', () => {
  it('when a simple evaluation names a testset, an application and an evaluator revision, then its run has their steps and mappings; an unknown revision is {count: 0}', async () => {
    const ts = (await call('POST', '/simple/testsets/', a, { testset: { slug: `s-${hex()}`, data: testcasesOf(rows) } })).body.testset;
    const app = (await call('POST', '/simple/applications/', a, { application: { slug: `s-${hex()}`, name: 'A', data: { uri: 'user:custom:m.app:latest' } } })).body.application;
    const ev = (await call('POST', '/simple/evaluators/', a, {
      evaluator: { slug: `s-${hex()}`, name: 'E', data: { uri: 'user:custom:m.ev:latest', schemas: { outputs: { type: 'object', properties: { score: { type: 'number' } } } } } },
    })).body.evaluator;
    const tsRev = (await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { id: ts.id } })).body.testset_revision;
    const appRev = (await call('POST', '/applications/revisions/retrieve', a, { application_ref: { id: app.id } })).body.application_revision;
    const evRev = (await call('POST', '/evaluators/revisions/retrieve', a, { evaluator_ref: { id: ev.id } })).body.evaluator_revision;
    const created = await call('POST', '/simple/evaluations/', a, {
      evaluation: { name: 'SDK Eval', flags: null, data: { status: 'running', query_steps: null, testset_steps: { [tsRev.id]: 'custom' }, application_steps: { [appRev.id]: 'custom' }, evaluator_steps: { [evRev.id]: 'auto' }, repeats: null } },
    });
    expect(created.status).toBe(200);
    const evaluation = created.body.evaluation;
    expect(evaluation.data).toMatchObject({ testset_steps: { [tsRev.id]: 'custom' }, application_steps: { [appRev.id]: 'custom' }, evaluator_steps: { [evRev.id]: 'auto' } });
    const run = (await call('GET', `/evaluations/runs/${evaluation.id}`, a)).body.run;
    expect(run).toMatchObject({ status: 'running', flags: { is_active: true, has_testsets: true, has_evaluators: true, has_auto: true } });
    expect(run.data.steps.map((s: { key: string; type: string }) => [s.key, s.type])).toEqual([
      [`testset-${tsRev.slug}`, 'input'], [`application-${appRev.slug}`, 'invocation'], [`evaluator-${evRev.slug}`, 'annotation'],
    ]);
    expect(run.data.mappings).toEqual(expect.arrayContaining([
      { column: { kind: 'testset', name: 'country' }, step: { key: `testset-${tsRev.slug}`, path: 'data.country' } },
      { column: { kind: 'annotation', name: 'score' }, step: { key: `evaluator-${evRev.slug}`, path: 'attributes.ag.data.outputs.score' } },
    ]));
    // PATCH: another evaluator instead; the old evaluator's cells go, the run's other cells stay.
    const ev2 = (await call('POST', '/simple/evaluators/', a, { evaluator: { slug: `s-${hex()}`, name: 'E2', data: { uri: 'user:custom:m.ev2:latest' } } })).body.evaluator;
    const ev2Rev = (await call('POST', '/evaluators/revisions/retrieve', a, { evaluator_ref: { id: ev2.id } })).body.evaluator_revision;
    const scenario = (await call('POST', `/simple/evaluations/${evaluation.id}/scenarios/add`, a, { count: 1 })).body.scenarios[0];
    for (const key of [`application-${appRev.slug}`, `evaluator-${evRev.slug}`]) {
      expect((await call('POST', `/simple/evaluations/${evaluation.id}/populate`, a, { results: [{ run_id: evaluation.id, scenario_id: scenario.id, step_key: key, status: 'success' }] })).status).toBe(200);
    }
    const patched = await call('PATCH', `/simple/evaluations/${evaluation.id}`, a, {
      evaluation: { id: evaluation.id, data: { testset_steps: [tsRev.id], application_steps: [appRev.id], evaluator_steps: { [ev2Rev.id]: 'custom' } } },
    });
    expect(patched.body.evaluation.data.evaluator_steps).toEqual({ [ev2Rev.id]: 'custom' });
    const cells = (await call('POST', '/evaluations/results/query', a, { result: { run_id: evaluation.id } })).body.results.map((c: { step_key: string }) => c.step_key);
    expect(cells).toEqual([`application-${appRev.slug}`]);
    expect(await call('PATCH', `/simple/evaluations/${evaluation.id}`, a, { evaluation: { id: evaluation.id } })).toEqual({ status: 200, body: { count: 0 } });
    expect(await call('PATCH', `/simple/evaluations/${evaluation.id}`, a, { evaluation: { id: evaluation.id, data: { evaluator_steps: [tsRev.id] } } })).toEqual({ status: 200, body: { count: 0 } });
    // Another project's revision, or an unknown one, builds nothing.
    expect(await call('POST', '/simple/evaluations/', b, { evaluation: { data: { testset_steps: [tsRev.id], evaluator_steps: [evRev.id] } } })).toEqual({ status: 200, body: { count: 0 } });
  });
});

describe('git routes', () => {
  it('when an artifact is built route by route, then variants, the initial revision, commits, a fork, the log and the lists agree', async () => {
    const slug = `g-${hex()}`;
    const created = await call('POST', '/workflows/', a, { workflow: { slug, name: 'Flow', tags: { k: 'v' } } });
    expect(created.status).toBe(200);
    const wf = created.body.workflow;
    expect(wf).toMatchObject({ slug, name: 'Flow', tags: { k: 'v' } });
    expect((await call('GET', `/workflows/${wf.id}`, a)).body).toEqual({ count: 1, workflow: wf });
    expect(await call('GET', `/workflows/${wf.id}`, b)).toEqual({ status: 200, body: { count: 0 } });

    const variant = (await call('POST', '/workflows/variants/', a, { workflow_variant: { slug: `${slug}-main`, workflow_id: wf.id, name: 'main' } })).body.workflow_variant;
    expect(variant).toMatchObject({ workflow_id: wf.id, artifact_id: wf.id, name: 'main' });
    const initial = await call('POST', '/workflows/revisions/', a, { workflow_revision: { workflow_variant_id: variant.id } });
    expect(initial.body.workflow_revision).toMatchObject({ version: '0', message: 'Initial revision', workflow_variant_id: variant.id });
    expect((await call('POST', '/workflows/revisions/', a, { workflow_revision: { workflow_variant_id: variant.id } })).status).toBe(409);
    const c1 = (await call('POST', '/workflows/revisions/commit', a, { workflow_revision: { workflow_variant_id: variant.id, message: 'one', data: { uri: 'agenta:builtin:echo:v0' } } })).body.workflow_revision;
    const c2 = (await call('POST', '/workflows/revisions/commit', a, { workflow_revision: { workflow_variant_id: variant.id, message: 'two', data: { uri: 'user:custom:m.f:latest' } } })).body.workflow_revision;
    expect([c1.version, c2.version]).toEqual(['1', '2']);

    // A delta deep-merges into the head's data; an unknown data key it would add is a 422; no data after data is a 400.
    const c3 = await call('POST', '/workflows/revisions/commit', a, { workflow_revision: { workflow_variant_id: variant.id, delta: { set: { parameters: { p: 1 } } } } });
    expect(c3.body.workflow_revision).toMatchObject({ version: '3', data: { uri: 'user:custom:m.f:latest', parameters: { p: 1 } } });
    expect((await call('POST', '/workflows/revisions/commit', a, { workflow_revision: { workflow_variant_id: variant.id, delta: { set: { nope: 1 } } } })).status).toBe(422);
    expect((await call('POST', '/workflows/revisions/commit', a, { workflow_revision: { workflow_variant_id: variant.id } })).status).toBe(400);
    // A revision's header can change, never its data.
    const edited = await call('PUT', `/workflows/revisions/${c1.id}`, a, { workflow_revision: { id: c1.id, name: 'renamed', data: { uri: 'x' } } });
    expect(edited.body.workflow_revision).toMatchObject({ name: 'renamed', data: { uri: 'agenta:builtin:echo:v0' } });

    const log = await call('POST', '/workflows/revisions/log', a, { workflow_revisions: { workflow_variant_id: variant.id, depth: 2 } });
    expect(log.body.workflow_revisions.map((r: { version: string }) => r.version)).toEqual(['3', '2']);
    expect((await call('POST', '/workflows/revisions/log', a, { workflow_revisions: { workflow_revision_id: c1.id } })).body.workflow_revisions.map((r: { version: string }) => r.version)).toEqual(['1', '0']);

    const fork = await call('POST', '/workflows/variants/fork', a, { workflow_variant: { slug: `${slug}-fork` }, workflow_variant_ref: { id: variant.id }, workflow_revision_ref: { id: c1.id } });
    expect(fork.status).toBe(200);
    const forked = await call('POST', '/workflows/revisions/query', a, { workflow_variant_refs: [{ id: fork.body.workflow_variant.id }] });
    expect(forked.body.workflow_revisions.map((r: { version: string; slug: string }) => r.version).sort()).toEqual(['0', '1']);
    expect(forked.body.workflow_revisions.find((r: { version: string }) => r.version === '1').data).toEqual({ uri: 'agenta:builtin:echo:v0' });
    expect((await call('POST', '/workflows/variants/fork', a, { workflow_variant: { slug: `${slug}-x` }, workflow_variant_ref: { slug: 'nope' } })).status).toBe(400);

    const variants = await call('POST', '/workflows/variants/query', a, { workflow_refs: [{ id: wf.id }] });
    expect(variants.body.workflow_variants.map((v: { id: string }) => v.id).sort()).toEqual([variant.id, fork.body.workflow_variant.id].sort());
    // Archiving a variant hides it and its revisions from the lists.
    expect((await call('POST', `/workflows/variants/${fork.body.workflow_variant.id}/archive`, a)).body.workflow_variant.deleted_at).toEqual(expect.any(String));
    expect((await call('POST', '/workflows/variants/query', a, { workflow_refs: [{ id: wf.id }] })).body.count).toBe(1);
    expect((await call('POST', '/workflows/revisions/query', a, { workflow_variant_refs: [{ id: fork.body.workflow_variant.id }] })).body.count).toBe(0);

    // Windowed artifact lists page by id, newest first.
    const more = [];
    for (let i = 0; i < 3; i++) more.push((await call('POST', '/workflows/', a, { workflow: { slug: `${slug}-${i}`, tags: { page: slug } } })).body.workflow.id);
    const page1 = await call('POST', '/workflows/query', a, { workflow: { tags: { page: slug } }, windowing: { limit: 2 } });
    expect(page1.body.workflows.map((x: { id: string }) => x.id)).toEqual([more[2], more[1]]);
    const page2 = await call('POST', '/workflows/query', a, { workflow: { tags: { page: slug } }, windowing: { limit: 2, next: more[1] } });
    expect(page2.body.workflows.map((x: { id: string }) => x.id)).toEqual([more[0]]);
    // The edit keeps what is not sent; a mismatched id is a 400.
    expect((await call('PUT', `/workflows/${wf.id}`, a, { workflow: { id: wf.id, description: 'd' } })).body.workflow).toMatchObject({ name: 'Flow', description: 'd', tags: { k: 'v' } });
    expect((await call('PUT', `/workflows/${wf.id}`, a, { workflow: { id: more[0], description: 'd' } })).status).toBe(400);
  });
});

describe('ordered workflow deltas', () => {
  it('when operations are committed on the head, then they apply in order with status committed; the same result is no_change, a moved head 409, a bad operation 422', async () => {
    const app = (await call('POST', '/simple/applications/', a, { application: { slug: `od-${hex()}`, data: {
      uri: 'agenta:custom:mock:v0', parameters: { prompt: { messages: [{ role: 'system', content: 'Be brief. Be kind.' }] }, temperature: 0.2 },
    } } })).body.application;
    const head = (await call('POST', '/applications/revisions/retrieve', a, { application_ref: { id: app.id } })).body.application_revision;
    const commit = (base: string | undefined, operations: unknown[]) => call('POST', '/applications/revisions/commit', a, {
      application_revision: { application_variant_id: head.application_variant_id, ...(base ? { base_revision_id: base } : {}), delta: { operations } },
    });
    const ops = [
      { operation: 'edit_text', target: ['parameters', 'prompt', 'messages', 0, 'content'], edits: [{ old: 'Be', new: 'Stay' }], match_mode: 'all' },
      { operation: 'set', target: ['parameters', 'temperature'], value: 0.7 },
      { operation: 'add_item', target: ['parameters', 'prompt', 'messages'], value: { role: 'user', content: '{{q}}' } },
    ];
    const done = await commit(head.id, ops);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ count: 1, status: 'committed', application_revision: { version: String(Number(head.version) + 1), data: {
      uri: 'agenta:custom:mock:v0', parameters: { prompt: { messages: [{ role: 'system', content: 'Stay brief. Stay kind.' }, { role: 'user', content: '{{q}}' }] }, temperature: 0.7 },
    } } });
    // The same value again changes nothing: no revision, the head answered.
    const same = await commit(done.body.application_revision.id, [{ operation: 'set', target: ['parameters', 'temperature'], value: 0.7 }]);
    expect(same.body).toMatchObject({ count: 1, status: 'no_change', application_revision: { id: done.body.application_revision.id } });
    // The old head is stale now: 409 with the current head, nothing committed.
    const stale = await commit(head.id, [{ operation: 'set', target: ['parameters', 'temperature'], value: 0.1 }]);
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatchObject({ code: 'revision_conflict', message: 'The variant head changed. No revision was committed.', retryable: true,
      details: { base_revision_id: head.id, current_revision_id: done.body.application_revision.id, current_revision_version: done.body.application_revision.version } });
    // An operation that cannot apply, data that is not a workflow's, or no base: 422 naming why.
    const bad = await commit(done.body.application_revision.id, [{ operation: 'remove', target: ['parameters', 'missing'] }]);
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatchObject({ code: 'target_not_found', details: { operation_index: 0 } });
    expect((await commit(done.body.application_revision.id, [{ operation: 'set', target: ['nope'], value: 1 }])).body.detail).toMatchObject({ code: 'invalid_data' });
    expect((await commit(undefined, ops)).body.detail).toMatchObject({ code: 'base_revision_required' });
        // Nothing but the first ordered commit added a revision.
    expect((await call('POST', '/applications/revisions/query', a, { application_variant_refs: [{ id: head.application_variant_id }] })).body.count).toBe(Number(head.version) + 2);
    // Keys are data: a delta naming __proto__ reaches no prototype in the server (legacy and ordered forms).
    const legacy = await call('POST', '/applications/revisions/commit', a, { application_revision: { application_variant_id: head.application_variant_id, delta: { remove: ['__proto__.hasOwnProperty', '__proto__.toString'] } } });
    expect(legacy.status).toBe(200);
    expect((await commit(legacy.body.application_revision.id, [{ operation: 'remove', target: ['__proto__', 'hasOwnProperty'] }])).body.detail).toMatchObject({ code: 'target_not_found' });
    expect((await call('GET', `/applications/revisions/${head.id}`, a)).body.count).toBe(1);
    // A plain commit says it committed too.
    const plain = await call('POST', '/applications/revisions/commit', a, { application_revision: { application_variant_id: head.application_variant_id, data: { uri: 'agenta:custom:mock:v0' } } });
    expect(plain.body.status).toBe('committed');
  });
});

describe('testset files', () => {
  const upload = async (path: string, acc: TestAccount, file: string, fields: Record<string, string> = {}, name = 'capitals.csv') => {
    const form = new FormData();
    form.set('file', new Blob([file]), name);
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    const r = await fetch(`${t.baseUrl}${path}`, { method: 'POST', headers: acc.auth, body: form });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };

  it('when a CSV is uploaded, then it becomes a testset whose download gives the rows back with their ids; a new file commits a revision; bad files are 400', async () => {
    const csv = 'country,correct_answer,__tags__\r\nFrance,Paris,"{""k"":""v""}"\r\n"Côte d\'Ivoire","Yamoussoukro, officially",\r\n';
    const created = await upload('/simple/testsets/upload', a, csv, { testset_name: 'From a file', testset_tags: '{"src":"csv"}' });
    expect(created.status).toBe(200);
    const ts = created.body.testset;
    expect(ts).toMatchObject({ name: 'From a file', tags: { src: 'csv' } });
    expect(ts.data.testcases.map((c: { data: Record<string, unknown> }) => ({ country: c.data.country, correct_answer: c.data.correct_answer }))).toEqual([
      { country: 'France', correct_answer: 'Paris' }, { country: 'Côte d\'Ivoire', correct_answer: 'Yamoussoukro, officially' },
    ]);
    expect(ts.data.testcases[0].tags).toEqual({ k: 'v' });

    const dl = await fetch(`${t.baseUrl}/simple/testsets/${ts.id}/download?file_type=json`, { method: 'POST', headers: a.auth });
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toBe('attachment; filename="From a file.json"');
    const rows = await dl.json() as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.__id__)).toEqual(ts.data.testcase_ids);
    expect(rows[1]).toMatchObject({ country: 'Côte d\'Ivoire', __dedup_id__: expect.stringMatching(/^[0-9a-f]{12}$/) });
    const revision = (await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { id: ts.id } })).body.testset_revision;
    const csvBack = await (await fetch(`${t.baseUrl}/testsets/revisions/${revision.id}/download`, { method: 'POST', headers: a.auth })).text();
    expect(csvBack.split('\r\n')[0]).toBe('__dedup_id__,__id__,correct_answer,country');

    // The downloaded file uploaded again changes nothing (same ids, same dedup ids); a changed one commits.
    const same = await upload(`/simple/testsets/${ts.id}/upload`, a, JSON.stringify(rows), { file_type: 'json' }, 'x.json');
    expect(same.body.testset.revision_id).toBe(revision.id);
    const next = await upload(`/testsets/revisions/${revision.id}/upload`, a, 'country\r\nSpain\r\n');
    expect(next.body.testset_revision).toMatchObject({ version: '2', testset_id: ts.id });
    expect(next.body.testset_revision.data.testcases.map((c: { data: { country: string } }) => c.data.country)).toEqual(['Spain']);

    expect((await upload('/simple/testsets/upload', a, 'a,b\r\n1\r\n')).body.detail).toMatch(/^Failed to read CSV file: /);
    expect((await upload('/simple/testsets/upload', a, '{"not":"a list"}', { file_type: 'json' })).body.detail).toMatch(/^Failed to read JSON file: /);
    expect((await upload('/simple/testsets/upload', a, 'a\r\n1\r\n', { file_type: 'xlsx' })).body.detail).toBe("Invalid file type. Supported types are 'csv' and 'json'.");
    expect((await call('POST', '/simple/testsets/upload', a, { file: 'nope' })).status).toBe(400);
    expect((await fetch(`${t.baseUrl}/simple/testsets/${ts.id}/download`, { method: 'POST', headers: a.auth })).status).toBe(400);
    expect((await fetch(`${t.baseUrl}/simple/testsets/${ts.id}/download?file_type=csv`, { method: 'POST', headers: b.auth })).status).toBe(404);
  });
});

describe('catalogs', () => {
  it('when the catalogs are read, then evaluators and applications list their own templates with presets and types; a builtin evaluator starts from its template', async () => {
    const evaluators = await call('GET', '/evaluators/catalog/templates/', a);
    const keys = evaluators.body.templates.map((x: { key: string }) => x.key);
    expect(keys).toEqual(expect.arrayContaining(['auto_exact_match', 'auto_ai_critique', 'feedback']));
    expect(keys).not.toContain('auto_starts_with');
    expect((await call('GET', '/evaluators/catalog/templates/?include_archived=true', a)).body.templates.map((x: { key: string }) => x.key)).toContain('auto_starts_with');
    const apps = (await call('GET', '/applications/catalog/templates/', a)).body.templates.map((x: { key: string }) => x.key);
    expect(apps).toContain('prompt');
    expect(apps).not.toContain('auto_exact_match');
    const presets = await call('GET', '/evaluators/catalog/templates/auto_ai_critique/presets/', a);
    expect(presets.body.presets.map((p: { key: string }) => p.key)).toEqual(['hallucination', 'conciseness', 'answer_relevancy', 'helpfulness']);
    expect((await call('GET', '/evaluators/catalog/templates/nope/presets/', a)).body).toEqual({ count: 0, presets: [] });
    expect((await call('GET', '/evaluators/catalog/templates/auto_regex_test/presets/starts_with', a)).body.preset.data.uri).toBe('agenta:builtin:auto_regex_test:v0');
    const types = (await call('GET', '/workflows/catalog/types/', a)).body.types.map((x: { key: string }) => x.key);
    expect(types).toEqual(expect.arrayContaining(['prompt-template', 'model']));
    expect((await call('GET', '/workflows/catalog/types/model', a)).body.type.json_schema).toMatchObject({ type: 'string', 'x-ag-type': 'grouped_choice', choices: expect.any(Object) });
    expect((await call('GET', '/workflows/catalog/types/nope', a)).status).toBe(404);
    expect((await call('GET', '/workflows/catalog/harnesses/', a)).body.count).toBeGreaterThan(0);
    expect((await call('GET', '/simple/evaluators/templates', a)).body.templates.map((x: { key: string }) => x.key)).toContain('auto_exact_match');

    const ev = (await call('POST', '/simple/evaluators/', a, { evaluator: { slug: `h-${hex()}`, name: 'Exact', data: { uri: 'agenta:builtin:auto_exact_match:v0' } } })).body.evaluator;
    expect(ev.data).toMatchObject({ uri: 'agenta:builtin:auto_exact_match:v0', parameters: { correct_answer_key: 'correct_answer' }, schemas: { outputs: expect.any(Object) } });
  });
});

describe('environments and deltas', () => {
  it('when an environment is created, committed by delta, guarded and listed, then it behaves as every other artifact; testset deltas patch rows', async () => {
    const env = (await call('POST', '/simple/environments/', a, { environment: { slug: `prod-${hex()}`, name: 'Production', data: { references: { 'app.revision': { application: { slug: 'app' } } } } } })).body.environment;
    expect(env).toMatchObject({ name: 'Production', variant_id: expect.any(String), revision_id: expect.any(String), data: { references: { 'app.revision': { application: { slug: 'app' } } } } });
    const variantId = env.variant_id;
    // data xor delta: neither and both are 400s; a delta sets and removes keys on the head.
    expect((await call('POST', '/environments/revisions/commit', a, { environment_revision: { environment_variant_id: variantId } })).body.detail).toBe('Provide either data or delta for a commit.');
    expect((await call('POST', '/environments/revisions/commit', a, { environment_revision: { environment_variant_id: variantId, data: {}, delta: {} } })).body.detail).toBe('Provide either data or delta for a commit, not both.');
    const patched = await call('POST', '/environments/revisions/commit', a, {
      environment_revision: { environment_variant_id: variantId, delta: { set: { 'judge.revision': { evaluator: { slug: 'judge' } } }, remove: ['app.revision'] } },
    });
    expect(patched.body.environment_revision).toMatchObject({ version: '2', message: 'Patched environment revision', data: { references: { 'judge.revision': { evaluator: { slug: 'judge' } } } } });
    expect(Object.keys(patched.body.environment_revision.data.references)).toEqual(['judge.revision']);
    expect((await call('POST', `/simple/environments/${env.id}/guard`, a)).body.environment.flags).toEqual({ is_guarded: true });
    expect((await call('POST', `/simple/environments/${env.id}/unguard`, a)).body.environment.flags).toEqual({ is_guarded: false });
    expect((await call('POST', '/environments/revisions/retrieve', a, {})).body).toEqual({ count: 0 });
    expect((await call('POST', '/simple/environments/query', a, { environment: { name: 'Production' } })).body.environments.map((x: { id: string }) => x.id)).toContain(env.id);

    const ts = (await call('POST', '/simple/testsets/', a, { testset: { slug: `d-${hex()}`, data: testcasesOf(rows) } })).body.testset;
    const tsVariant = (await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { id: ts.id } })).body.testset_revision.testset_variant_id;
    const delta = await call('POST', '/testsets/revisions/commit', a, {
      testset_revision: { testset_id: ts.id, testset_variant_id: tsVariant, delta: { rows: { remove: [ts.data.testcase_ids[0]], add: [{ data: { country: 'Italy', correct_answer: 'Rome' } }] }, columns: { replace: [['country', 'nation']] } } },
    });
    expect(delta.status).toBe(200);
    expect(delta.body.testset_revision.data.testcases.map((c: { data: Record<string, unknown> }) => c.data.nation)).toEqual(['Spain', 'Italy']);
    expect((await call('POST', '/testsets/revisions/commit', a, { testset_revision: { testset_id: ts.id, testset_variant_id: tsVariant } })).status).toBe(400);
  });
});

describe('deploy', () => {
  it('when two application revisions are deployed to an environment at once, then both keys are in its head; missing refs are 400s, an unknown environment 404', async () => {
    const env = (await call('POST', '/simple/environments/', a, { environment: { slug: `stage-${hex()}`, data: { references: {} } } })).body.environment;
    const apps = await Promise.all([1, 2].map(async (i) => (await call('POST', '/simple/applications/', a, { application: { slug: `dep${i}-${hex()}`, data: { uri: `user:custom:m.f${i}:latest` } } })).body.application));
    const deployed = await Promise.all(apps.map((app) => call('POST', '/applications/revisions/deploy', a, { application_ref: { id: app.id }, environment_ref: { id: env.id } })));
    expect(deployed.map((d) => d.status)).toEqual([200, 200]);
    expect(deployed[0]!.body.application_revision).toMatchObject({ id: apps[0].revision_id });
    const head = (await call('POST', '/environments/revisions/retrieve', a, { environment_ref: { id: env.id } })).body.environment_revision;
    expect(head.version).toBe('3');
    expect(head.data.references[`${apps[0].slug}.revision`]).toEqual({ application: { id: apps[0].id }, application_variant: { id: apps[0].variant_id }, application_revision: { id: apps[0].revision_id, slug: expect.any(String), version: '1' } });
    expect(Object.keys(head.data.references).sort()).toEqual(apps.map((x) => `${x.slug}.revision`).sort());
    // The environment path of retrieve: the revision the key names.
    const viaEnv = await call('POST', '/applications/revisions/retrieve', a, { application_ref: { slug: apps[0].slug }, environment_ref: { id: env.id } });
    expect(viaEnv.body.application_revision.id).toBe(apps[0].revision_id);
    expect(viaEnv.body.retrieval_info).toMatchObject({ selector: { key: `${apps[0].slug}.revision` }, references: { environment: { id: env.id }, application: { id: apps[0].id } } });
    expect((await call('POST', '/applications/revisions/retrieve', a, { environment_ref: { id: env.id }, key: 'nope' })).status).toBe(404);
    expect((await call('POST', '/applications/revisions/retrieve', a, { key: 'x' })).body.detail).toBe('Environment-backed application retrieve requires environment refs.');
    expect((await call('POST', '/applications/revisions/retrieve', a, { environment_ref: { id: env.id } })).body.detail).toBe('Environment-backed application retrieve requires key.');
    expect((await call('POST', '/applications/revisions/deploy', a, { environment_ref: { id: env.id } })).body.detail).toBe('Application deploy requires application refs.');
    expect((await call('POST', '/applications/revisions/deploy', a, { application_ref: { id: apps[0].id } })).body.detail).toBe('Application deploy requires environment refs.');
    expect((await call('POST', '/applications/revisions/deploy', a, { application_ref: { id: apps[0].id }, environment_ref: { slug: `none-${hex()}` } })).status).toBe(404);
    expect((await call('POST', '/applications/revisions/deploy', b, { application_ref: { id: apps[0].id }, environment_ref: { id: env.id } })).status).toBe(404);
  });
});

describe('resolve and embeds', () => {
  it('when a workflow embeds another and a snippet names an environment key, then resolve replaces both; a missing target follows the error policy', async () => {
    const base = (await call('POST', '/simple/workflows/', a, { workflow: { slug: `base-${hex()}`, data: { parameters: { prompt: { messages: [{ role: 'system', content: 'Be brief.' }] }, tone: 'dry' } } } })).body.workflow;
    const baseRev = (await call('POST', '/workflows/revisions/retrieve', a, { workflow_ref: { id: base.id } })).body.workflow_revision;
    const env = (await call('POST', '/simple/environments/', a, { environment: { slug: `e-${hex()}`, data: { references: {} } } })).body.environment;
    expect((await call('POST', '/workflows/revisions/deploy', a, { workflow_ref: { id: base.id }, environment_ref: { id: env.id }, key: 'base' })).status).toBe(200);
    const data = {
      parameters: {
        inherited: { '@ag.embed': { '@ag.references': { workflow_revision: { slug: baseRev.slug } }, '@ag.selector': { path: 'parameters.tone' } } },
        system: `Say: @{{environment.slug=${env.slug}, key=base}}`,
      },
    };
    const top = (await call('POST', '/simple/workflows/', a, { workflow: { slug: `top-${hex()}`, data } })).body.workflow;
    const resolved = await call('POST', '/workflows/revisions/resolve', a, { workflow_ref: { id: top.id } });
    expect(resolved.body.workflow_revision.data.parameters).toEqual({ inherited: 'dry', system: 'Say: Be brief.' });
    expect(resolved.body.resolution_info).toMatchObject({ embeds_resolved: 2, depth_reached: 1, errors: [] });
    const viaRetrieve = await call('POST', '/workflows/revisions/retrieve', a, { workflow_ref: { id: top.id }, resolve: true });
    expect(viaRetrieve.body.workflow_revision.data.parameters.inherited).toBe('dry');

    const missing = { parameters: { x: { '@ag.embed': { '@ag.references': { workflow_revision: { slug: 'nope' } } } } } };
    expect((await call('POST', '/workflows/revisions/resolve', a, { workflow_revision: { data: missing } })).status).toBe(404);
    const placeholder = await call('POST', '/workflows/revisions/resolve', a, { workflow_revision: { data: missing }, error_policy: 'placeholder' });
    expect(placeholder.body.workflow_revision.data.parameters.x).toMatch(/^<error:/);
    expect(placeholder.body.resolution_info.errors).toHaveLength(1);
    expect((await call('POST', '/workflows/revisions/resolve', a, { workflow_revision: {} })).status).toBe(400);
    // Another project's workflows are out of reach.
    expect((await call('POST', '/workflows/revisions/resolve', b, { workflow_revision: { data }, error_policy: 'keep' })).body.resolution_info.embeds_resolved).toBe(0);
    // Environments resolve too: the revision with its references (nothing embedded), not across projects.
    const envResolved = await call('POST', '/environments/revisions/resolve', a, { environment_ref: { id: env.id } });
    expect(envResolved.body).toMatchObject({ count: 1, environment_revision: { data: { references: { base: { workflow: { id: base.id } } } } }, resolution_info: { embeds_resolved: 0, errors: [] } });
    expect((await call('POST', '/environments/revisions/resolve', b, { environment_ref: { id: env.id } })).body).toEqual({ count: 0 });
  });
});
