// Server-side execution of evaluation runs (reference evaluations §3.7, §4.2), on the real stack: a
// simple evaluation created without `status: running` is dispatched (`evaluations.run.dispatched` →
// evaluation_dispatches → the command side's worker), which adds one scenario per testcase, invokes
// the `agenta:custom:mock:v0` application and evaluators (their traces through the span pipeline
// into ClickHouse), refreshes the metrics from those traces and finalises the run. `…/process`
// re-executes missing cells; an undispatchable graph ends `failure` and closed; a failing
// application ends the run `errors`; `is_cached` reuses stored traces of the same hash; the mock
// handler is also served at /services/mock/v0/invoke.
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
const hex = (n = 4): string => randomBytes(n).toString('hex');
const MOCK = 'agenta:custom:mock:v0';
const SCORE_SCHEMA = { type: 'object', properties: { score: { type: 'number' }, success: { type: 'boolean' } } };

async function testsetRevision(acc: TestAccount, rows: Array<Record<string, unknown>>): Promise<{ id: string; slug: string }> {
  const ts = (await call('POST', '/simple/testsets/', acc, { testset: { slug: `x-${hex()}`, data: { testcases: rows.map((data) => ({ data })) } } })).body.testset;
  return (await call('POST', '/testsets/revisions/retrieve', acc, { testset_ref: { id: ts.id } })).body.testset_revision;
}
async function workflowRevision(acc: TestAccount, entity: 'application' | 'evaluator', parameters: Record<string, unknown>, outputs?: unknown): Promise<{ id: string; slug: string }> {
  const created = await call('POST', `/simple/${entity}s/`, acc, {
    [entity]: { slug: `${entity[0]}-${hex()}`, name: `${entity} ${hex()}`, data: { uri: MOCK, parameters, ...(outputs ? { schemas: { outputs } } : {}) } },
  });
  expect(created.status).toBe(200);
  return (await call('POST', `/${entity}s/revisions/retrieve`, acc, { [`${entity}_ref`]: { id: created.body[entity].id } })).body[`${entity}_revision`];
}

/** The run once `n` of its dispatches are finished by the worker, polled. */
async function settled(acc: TestAccount, runId: string, n = 1, timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const done = await db.query('SELECT count(*)::int AS n FROM evaluation_dispatches WHERE run_id = $1 AND finished_at IS NOT NULL', [runId]);
    if (done.rows[0].n >= n) return (await call('GET', `/evaluations/runs/${runId}`, acc)).body.run;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not settle: ${JSON.stringify((await call('GET', `/evaluations/runs/${runId}`, acc)).body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('server-side execution', () => {
  it('given a testset, a mock application and four mock evaluators, when a simple evaluation is created, then the server executes it and the metrics come from its traces', async () => {
    const ts = await testsetRevision(a, [{ country: 'France', capital: 'Paris' }, { country: 'Japan', capital: 'Tokyo' }]);
    const app = await workflowRevision(a, 'application', { key: 'static', kwargs: { output: { answer: 'Paris' } } });
    const scored = await workflowRevision(a, 'evaluator', { key: 'score', kwargs: { score: 0.7 } }, SCORE_SCHEMA);
    const pass = await workflowRevision(a, 'evaluator', { key: 'pass' }, SCORE_SCHEMA);
    const fail = await workflowRevision(a, 'evaluator', { key: 'fail' }, SCORE_SCHEMA);
    const reflect = await workflowRevision(a, 'evaluator', { key: 'reflect' }, SCORE_SCHEMA);
    const human = await workflowRevision(a, 'evaluator', { key: 'pass' }, SCORE_SCHEMA);
    const created = await call('POST', '/simple/evaluations/', a, { evaluation: { name: 'server run', data: {
      testset_steps: [ts.id], application_steps: [app.id],
      evaluator_steps: { [scored.id]: 'auto', [pass.id]: 'auto', [fail.id]: 'auto', [reflect.id]: 'auto' },
    } } });
    expect(created.status).toBe(200);
    const id = created.body.evaluation.id;
    expect(created.body.evaluation).toMatchObject({ flags: { is_active: true }, data: { status: 'running' } });

    const run = await settled(a, id);
    expect(run).toMatchObject({ status: 'success', flags: { is_active: false } });
    expect(run.flags.is_closed).not.toBe(true);
    const scenarios = (await call('POST', '/evaluations/scenarios/query', a, { scenario: { run_id: id } })).body.scenarios;
    expect(scenarios.map((s: { status: string }) => s.status)).toEqual(['success', 'success']);
    const cells = (await call('POST', '/evaluations/results/query', a, { result: { run_id: id } })).body.results as Array<{ step_key: string; status: string; trace_id?: string; testcase_id?: string }>;
    expect(cells).toHaveLength(2 * 6);
    expect(cells.every((c) => c.status === 'success' && c.testcase_id)).toBe(true);
    expect(cells.filter((c) => c.step_key.startsWith('testset-')).every((c) => c.trace_id === undefined)).toBe(true);
    expect(cells.filter((c) => !c.step_key.startsWith('testset-')).every((c) => typeof c.trace_id === 'string')).toBe(true);

    // Global metrics: the evaluators' scores as the traces hold them (reflect saw the application's outputs).
    const global = (await call('POST', '/evaluations/metrics/query', a, { metrics: { run_id: id, scenario_ids: false, timestamps: false } })).body.metrics;
    expect(global).toHaveLength(1);
    const mean = (rev: { slug: string }) => global[0].data[`evaluator-${rev.slug}`]['attributes.ag.data.outputs.score'];
    expect(mean(scored)).toMatchObject({ count: 2, mean: 0.7 });
    expect(mean(pass)).toMatchObject({ count: 2, mean: 1 });
    expect(mean(fail)).toMatchObject({ count: 2, mean: 0 });
    expect(mean(reflect)).toMatchObject({ count: 2, mean: 1 });
    const perScenario = (await call('POST', '/evaluations/metrics/query', a, { metrics: { run_id: id, scenario_ids: true } })).body.metrics;
    expect(perScenario).toHaveLength(2);

    // The evaluator's trace is linked to the application's (key `invocation`), and both are readable spans.
    const appCell = cells.find((c) => c.step_key === `application-${app.slug}`)!;
    const evalCell = cells.find((c) => c.step_key === `evaluator-${scored.slug}` && c.testcase_id === appCell.testcase_id)!;
    const evalTrace = (await call('GET', `/tracing/traces/${evalCell.trace_id!.replaceAll('-', '')}`, a)).body;
    expect(JSON.stringify(evalTrace)).toContain(appCell.trace_id!.replaceAll('-', ''));

    // A human evaluator added later is left pending by the server: …/process runs the missing cells only.
    const steps = (await call('GET', `/evaluations/runs/${id}`, a)).body.run.data.steps;
    const humanStep = { key: `evaluator-${human.slug}`, type: 'annotation', origin: 'human', references: { evaluator_revision: { id: human.id, slug: human.slug } } };
    expect((await call('POST', `/simple/evaluations/${id}/steps/add`, a, { steps: [humanStep] })).status).toBe(200);
    const before = await db.query("SELECT count(*)::int AS n FROM evaluation_events WHERE run_id = $1 AND type = 'evaluations.results.upserted'", [id]);
    expect((await call('POST', `/simple/evaluations/${id}/process`, a, {})).status).toBe(202);
    const again = await settled(a, id, 2);
    expect(again.status).toBe('running');
    expect(again.flags.is_active).toBe(true);
    const after = (await call('POST', '/evaluations/results/query', a, { result: { run_id: id } })).body.results as Array<{ step_key: string; status: string }>;
    expect(after.filter((c) => c.step_key === humanStep.key).map((c) => c.status)).toEqual(['pending', 'pending']);
    expect(after.filter((c) => c.step_key !== humanStep.key).every((c) => c.status === 'success')).toBe(true);
    const written = await db.query("SELECT count(*)::int AS n FROM evaluation_events WHERE run_id = $1 AND type = 'evaluations.results.upserted'", [id]);
    expect(written.rows[0].n - before.rows[0].n).toBe(2);
    expect(steps).toHaveLength(6);

    // Another project cannot process it; a closed run answers 409.
    expect((await call('POST', `/simple/evaluations/${id}/process`, b, {})).status).toBe(202);
    expect((await db.query('SELECT count(*)::int AS n FROM evaluation_dispatches WHERE run_id = $1', [id])).rows[0].n).toBe(2);
    expect((await call('POST', `/simple/evaluations/${id}/close`, a)).status).toBe(200);
    const closed = await call('POST', `/simple/evaluations/${id}/process`, a, {});
    expect(closed.status).toBe(409);
    expect(closed.body.detail).toMatchObject({ message: 'Cannot modify a closed evaluation.', run_id: id });
  }, 180_000);

  it('given is_cached, when the same testset, application and evaluator run again, then the stored traces are reused and each cell records its hash', async () => {
    const ts = await testsetRevision(a, [{ q: 'one' }, { q: 'two' }]);
    const app = await workflowRevision(a, 'application', { key: 'echo' });
    const judge = await workflowRevision(a, 'evaluator', { key: 'reflect' }, SCORE_SCHEMA);
    const create = async (flags: Record<string, boolean>): Promise<string> => {
      const r = await call('POST', '/simple/evaluations/', a, { evaluation: { name: 'cached', flags, data: { testset_steps: [ts.id], application_steps: [app.id], evaluator_steps: { [judge.id]: 'auto' } } } });
      expect(r.status).toBe(200);
      return r.body.evaluation.id;
    };
    type Cell = { step_key: string; testcase_id: string; status: string; trace_id?: string; hash_id?: string };
    const cellsOf = async (id: string): Promise<Cell[]> => ((await call('POST', '/evaluations/results/query', a, { result: { run_id: id } })).body.results as Cell[])
      .filter((c) => !c.step_key.startsWith('testset-')).sort((x, y) => `${x.step_key}${x.testcase_id}`.localeCompare(`${y.step_key}${y.testcase_id}`));
    const first = await create({ is_cached: true });
    expect((await settled(a, first)).status).toBe('success');
    const one = await cellsOf(first);
    expect(one).toHaveLength(4);
    expect(one.every((c) => c.status === 'success' && typeof c.trace_id === 'string' && typeof c.hash_id === 'string')).toBe(true);
    // The same testcase and application give the same hash; another testcase another one.
    expect(new Set(one.map((c) => c.hash_id)).size).toBe(4);
    for (const c of one) {
      const deadline = Date.now() + 30_000;
      while ((await call('GET', `/traces/${c.trace_id!.replaceAll('-', '')}`, a)).body.count !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    }

    // Again with is_cached: nothing is invoked, every cell names the first run's trace and hash (the
    // evaluator's hash covers its link to the reused application trace, so it is reused too).
    const second = await create({ is_cached: true });
    expect((await settled(a, second)).status).toBe('success');
    const two = await cellsOf(second);
    expect(two.map((c) => [c.step_key, c.testcase_id, c.trace_id, c.hash_id])).toEqual(one.map((c) => [c.step_key, c.testcase_id, c.trace_id, c.hash_id]));
    const global = (await call('POST', '/evaluations/metrics/query', a, { metrics: { run_id: second, scenario_ids: false, timestamps: false } })).body.metrics;
    expect(global[0].data[`evaluator-${judge.slug}`]['attributes.ag.data.outputs.score']).toMatchObject({ count: 2, mean: 1 });

    // Without the flag the workflows run again: new traces, no hash recorded.
    const third = await create({});
    expect((await settled(a, third)).status).toBe('success');
    const three = await cellsOf(third);
    expect(three).toHaveLength(4);
    expect(three.every((c) => c.hash_id === undefined && !one.some((o) => o.trace_id === c.trace_id))).toBe(true);
  });

  it('given a graph the server cannot execute, when it is started, then the run ends failure and closed; a failing application ends it errors', async () => {
    const ts = await testsetRevision(a, [{ q: 1 }]);
    const app1 = await workflowRevision(a, 'application', { key: 'echo' });
    const app2 = await workflowRevision(a, 'application', { key: 'echo' });
    const ev = await workflowRevision(a, 'evaluator', { key: 'pass' }, SCORE_SCHEMA);
    const two = (await call('POST', '/simple/evaluations/', a, { evaluation: { data: { testset_steps: [ts.id], application_steps: [app1.id, app2.id], evaluator_steps: { [ev.id]: 'auto' } } } })).body.evaluation;
    const refused = await settled(a, two.id);
    expect(refused).toMatchObject({ status: 'failure', flags: { is_closed: true, is_active: false } });
    const outcome = await db.query('SELECT outcome FROM evaluation_dispatches WHERE run_id = $1', [two.id]);
    expect(outcome.rows[0].outcome).toBe('failed: A run can invoke at most one application.');

    const broken = await workflowRevision(a, 'application', { key: 'error', kwargs: { message: 'boom' } });
    const failing = (await call('POST', '/simple/evaluations/', a, { evaluation: { data: { testset_steps: [ts.id], application_steps: [broken.id], evaluator_steps: { [ev.id]: 'auto' } } } })).body.evaluation;
    const errored = await settled(a, failing.id);
    expect(errored).toMatchObject({ status: 'errors', flags: { is_active: false } });
    const cells = (await call('POST', '/evaluations/results/query', a, { result: { run_id: failing.id } })).body.results as Array<{ step_key: string; status: string; error?: { message?: string } }>;
    const appCell = cells.find((c) => c.step_key === `application-${broken.slug}`)!;
    expect(appCell).toMatchObject({ status: 'failure', error: { code: 500, message: 'boom' } });
    expect(cells.some((c) => c.step_key === `evaluator-${ev.slug}`)).toBe(false);

    // A run the SDK drives (created running) is not dispatched.
    const sdk = (await call('POST', '/simple/evaluations/', a, { evaluation: { data: { status: 'running', testset_steps: [ts.id], evaluator_steps: { [ev.id]: 'custom' } } } })).body.evaluation;
    expect((await db.query('SELECT count(*)::int AS n FROM evaluation_dispatches WHERE run_id = $1', [sdk.id])).rows[0].n).toBe(0);
  }, 180_000);

  it('given a saved query selecting traces, when a query → evaluators run is created, then each selected trace becomes a scenario judged from its outputs', async () => {
    const traceIds = [hex(16), hex(16)];
    for (const trace_id of traceIds) {
      const r = await call('POST', '/tracing/spans/ingest', a, { spans: [{ trace_id, span_id: hex(8), span_name: 'chat', attributes: { ag: { data: { inputs: { q: 'hi' }, outputs: { answer: 'hello' } } } } }] });
      expect(r.status).toBe(202);
    }
    // The spans are projected asynchronously: the query must see both before the run selects them.
    const deadline = Date.now() + 30_000;
    for (const id of traceIds) {
      while (Date.now() < deadline && !JSON.stringify((await call('GET', `/tracing/traces/${id}`, a)).body ?? {}).includes('hello')) await new Promise((r) => setTimeout(r, 200));
    }
    const q = (await call('POST', '/simple/queries/', a, { query: { slug: `picked-${hex()}`, data: { filtering: { conditions: [{ field: 'trace_id', operator: 'in', value: traceIds }] } } } })).body.query;
    const qRev = (await call('POST', '/queries/revisions/retrieve', a, { query_ref: { id: q.id } })).body.query_revision;
    const reflect = await workflowRevision(a, 'evaluator', { key: 'reflect' }, SCORE_SCHEMA);
    const created = await call('POST', '/simple/evaluations/', a, { evaluation: { data: { query_steps: [qRev.id], evaluator_steps: { [reflect.id]: 'auto' } } } });
    expect(created.status).toBe(200);
    const id = created.body.evaluation.id;
    const run = await settled(a, id);
    expect(run).toMatchObject({ status: 'success', flags: { has_queries: true, is_active: false } });
    const cells = (await call('POST', '/evaluations/results/query', a, { result: { run_id: id } })).body.results as Array<{ step_key: string; status: string; trace_id?: string }>;
    const inputs = cells.filter((c) => c.step_key.startsWith('query-'));
    expect(inputs.map((c) => c.trace_id!.replaceAll('-', '')).sort()).toEqual([...traceIds].sort());
    expect(cells.filter((c) => c.step_key === `evaluator-${reflect.slug}`).map((c) => c.status)).toEqual(['success', 'success']);
    const global = (await call('POST', '/evaluations/metrics/query', a, { metrics: { run_id: id, scenario_ids: false, timestamps: false } })).body.metrics;
    expect(global[0].data[`evaluator-${reflect.slug}`]['attributes.ag.data.outputs.score']).toMatchObject({ count: 2, mean: 1 });
  }, 120_000);

  it('given a live run over a saved query, when the cron ticks, then each tick\'s traces become stamped scenarios with the tick\'s temporal metrics', async () => {
    const base = new Date(Date.now() - 30 * 60_000);
    base.setUTCSeconds(0, 0);
    const at = (min: number): Date => new Date(base.getTime() + min * 60_000);
    const traces = [[hex(16), 1], [hex(16), 2], [hex(16), 6]] as const;
    for (const [trace_id, min] of traces) {
      const start = at(min).toISOString();
      const r = await call('POST', '/tracing/spans/ingest', a, { spans: [{ trace_id, span_id: hex(8), span_name: 'live', start_time: start, end_time: start, attributes: { ag: { data: { inputs: { q: 1 }, outputs: { answer: 'x' } } } } }] });
      expect(r.status).toBe(202);
    }
    const deadline = Date.now() + 30_000;
    for (const [id] of traces) {
      while (Date.now() < deadline && !JSON.stringify((await call('GET', `/tracing/traces/${id}`, a)).body ?? {}).includes('answer')) await new Promise((r) => setTimeout(r, 200));
    }
    const filtering = { conditions: [{ field: 'trace_type', operator: 'is', value: 'invocation' }, { field: 'trace_id', operator: 'in', value: traces.map(([id]) => id) }] };
    const q = (await call('POST', '/simple/queries/', a, { query: { slug: `live-${hex()}`, data: { filtering } } })).body.query;
    const qRev = (await call('POST', '/queries/revisions/retrieve', a, { query_ref: { id: q.id } })).body.query_revision;
    const reflect = await workflowRevision(a, 'evaluator', { key: 'reflect' }, SCORE_SCHEMA);
    const live = (await call('POST', '/simple/evaluations/', a, { evaluation: { flags: { is_live: true }, data: { query_steps: [qRev.id], evaluator_steps: { [reflect.id]: 'auto' } } } })).body.evaluation;
    expect(live).toMatchObject({ flags: { is_live: true, is_active: true }, data: { status: 'running' } });
    expect((await db.query('SELECT count(*)::int AS n FROM evaluation_dispatches WHERE run_id = $1', [live.id])).rows[0].n).toBe(0);
    // A live run whose query has no invocation filter is closed by the cron.
    const loose = (await call('POST', '/simple/queries/', a, { query: { slug: `loose-${hex()}`, data: { filtering: { conditions: [{ field: 'span_name', value: 'live' }] } } } })).body.query;
    const looseRev = (await call('POST', '/queries/revisions/retrieve', a, { query_ref: { id: loose.id } })).body.query_revision;
    // (a simple evaluation refuses it up front; a run written directly is closed by the cron)
    expect((await call('POST', '/simple/evaluations/', a, { evaluation: { flags: { is_live: true }, data: { query_steps: [looseRev.id], evaluator_steps: { [reflect.id]: 'auto' } } } })).body).toEqual({ count: 0 });
    const closing = (await call('POST', '/evaluations/runs/', a, { runs: [{ status: 'running', flags: { is_live: true }, data: { steps: [
      { key: 'query-loose', type: 'input', origin: 'custom', references: { query_revision: { id: looseRev.id } } },
      { key: `evaluator-${reflect.slug}`, type: 'annotation', origin: 'auto', references: { evaluator_revision: { id: reflect.id } } },
    ] } }] })).body.runs[0];
    expect((await call('POST', `/simple/evaluations/${closing.id}/start`, a)).body.evaluation.flags).toMatchObject({ is_active: true });

    const admin = { Authorization: `Access ${t.adminToken}` };
    const tick = async (end: Date) => {
      const r = await fetch(`${t.baseUrl}/admin/evaluations/runs/refresh?trigger_interval=5&trigger_datetime=${encodeURIComponent(end.toISOString())}`, { method: 'POST', headers: admin });
      return { status: r.status, body: await r.json() };
    };
    expect(await tick(at(5))).toEqual({ status: 200, body: { status: 'success' } });
    await settled(a, live.id, 1);
    expect((await call('GET', `/evaluations/runs/${closing.id}`, a)).body.run.flags).toMatchObject({ is_closed: true });
    expect(await tick(at(10))).toEqual({ status: 200, body: { status: 'success' } });
    await settled(a, live.id, 2);
    // The same tick again schedules nothing new.
    expect((await tick(at(10))).body).toEqual({ status: 'success' });
    expect((await db.query('SELECT count(*)::int AS n FROM evaluation_dispatches WHERE run_id = $1', [live.id])).rows[0].n).toBe(2);

    const scenarios = (await call('POST', '/evaluations/scenarios/query', a, { scenario: { run_id: live.id } })).body.scenarios as Array<{ timestamp: string; interval: number; status: string }>;
    expect(scenarios.map((s) => [s.timestamp, s.interval, s.status])).toEqual([
      [base.toISOString(), 5, 'success'], [base.toISOString(), 5, 'success'], [at(5).toISOString(), 5, 'success'],
    ]);
    const temporal = (await call('POST', '/evaluations/metrics/query', a, { metrics: { run_id: live.id, timestamps: true } })).body.metrics as Array<{ timestamp: string; interval: number; data: Record<string, any> }>;
    expect(temporal.map((m) => [m.timestamp, m.interval, m.data[`evaluator-${reflect.slug}`]['attributes.ag.data.outputs.score'].count]).sort()).toEqual([
      [base.toISOString(), 5, 2], [at(5).toISOString(), 5, 1],
    ]);
    const run = (await call('GET', `/evaluations/runs/${live.id}`, a)).body.run;
    expect(run).toMatchObject({ status: 'running', flags: { is_active: true, is_live: true } });
    // The cron is the operator's: a project key is refused.
    expect((await call('POST', '/admin/evaluations/runs/refresh', a)).status).toBe(401);
  }, 180_000);

  it('when the mock workflow is invoked over HTTP, then it answers its outputs and trace; a failure is a status; bad input is a 4xx', async () => {
    const ok = await call('POST', '/services/mock/v0/invoke', a, { data: { parameters: { key: 'score', kwargs: { score: 0.2, threshold: 0.1 } }, inputs: { q: 1 } } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ version: '2025.07.14', status: { code: 200 }, data: { outputs: { score: 0.2, success: true } } });
    expect(ok.body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const echo = await call('POST', '/services/mock/v0/invoke', a, { data: { revision: { data: { parameters: { key: 'echo' } } }, inputs: { q: 'hi' } } });
    expect(echo.body.data.outputs).toEqual({ q: 'hi' });
    const judged = await call('POST', '/services/mock/v0/invoke', a, {
      data: { parameters: { key: 'reflect' }, outputs: { answer: 'x' } }, links: { invocation: { trace_id: ok.body.trace_id, span_id: ok.body.span_id } },
    });
    expect(judged.body.data.outputs).toEqual({ score: 1, success: true });
    const failed = await call('POST', '/services/mock/v0/invoke', a, { data: { parameters: { key: 'error' } } });
    expect(failed.status).toBe(200);
    expect(failed.body.status).toMatchObject({ code: 500 });
    expect((await call('POST', '/services/mock/v0/invoke', a, { data: { parameters: { key: 'nope' } } })).status).toBe(400);
    expect((await call('POST', '/services/mock/v0/invoke', a, { links: { invocation: { trace_id: 'zz', span_id: 'yy' } } })).status).toBe(422);
    // The invocation's trace is stored like any other (read back by another project: unknown).
    const deadline = Date.now() + 30_000;
    let found: { status: number; body: any } = { status: 0, body: undefined };
    while (Date.now() < deadline) {
      found = await call('GET', `/tracing/traces/${ok.body.trace_id}`, a);
      if (JSON.stringify(found.body ?? {}).includes(ok.body.span_id)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(JSON.stringify(found.body)).toContain(ok.body.span_id);
    expect(JSON.stringify((await call('GET', `/tracing/traces/${ok.body.trace_id}`, b)).body ?? {})).not.toContain(ok.body.span_id);
  }, 120_000);
});
