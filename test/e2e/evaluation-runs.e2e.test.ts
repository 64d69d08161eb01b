// Evaluation runs end to end (reference evaluations §2.3, §2.4 slice routes), on the real Kafka
// topic evaluations.v1 and projector-evaluations: a run created with steps (has_* derived), scenarios
// added in order, cells upserted (the same cell twice keeps its id), metrics written by key, a
// scenario PATCHed the way the SDK closes it, the run closed (every later write 409 with the
// reference's nested body, nothing stored), reopened, queried, deleted with everything it owns —
// and tenancy: another project's key sees and changes none of it.
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
const hex = (n: number): string => randomBytes(n).toString('hex');

const steps = [
  { key: 'testset-abc', type: 'input', origin: 'custom', references: { testset_revision: { id: '019a0000-0000-7000-8000-000000000001' } } },
  { key: 'application-def', type: 'invocation', origin: 'custom', references: { application_revision: { id: '019a0000-0000-7000-8000-000000000002' } } },
  { key: 'evaluator-ghi', type: 'annotation', origin: 'custom', references: { evaluator_revision: { id: '019a0000-0000-7000-8000-000000000003' } } },
];

async function newRun(acc: TestAccount, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await call('POST', '/evaluations/runs/', acc, { runs: [{ name: `run ${hex(3)}`, status: 'running', data: { steps, repeats: 1 }, tags: { t: 1 }, ...extra }] });
  expect(r.status).toBe(200);
  return r.body.runs[0];
}

describe('evaluation runs', () => {
  it('given a run with steps, when it is created and read back, then its has_* flags follow the steps and it reads as stored', async () => {
    const run = await newRun(a, { flags: { is_live: false, has_human: true } });
    expect(run).toMatchObject({ status: 'running', version: '2025-07-14', tags: { t: 1 }, data: { steps, repeats: 1 } });
    // has_* come from the steps, never from the client.
    expect(run.flags).toMatchObject({ has_testsets: true, has_evaluators: true, has_custom: true, has_human: false, has_queries: false, is_closed: false });
    expect(await call('GET', `/evaluations/runs/${run.id}`, a)).toEqual({ status: 200, body: { count: 1, run } });
    const q = await call('POST', '/evaluations/runs/query', a, { run: { ids: [run.id], references: [{ testset_revision: { id: steps[0]!.references.testset_revision!.id } }] } });
    expect(q.body).toMatchObject({ count: 1, runs: [{ id: run.id }] });
    const miss = await call('POST', '/evaluations/runs/query', a, { run: { ids: [run.id], references: [{ testset_revision: { id: '019a0000-0000-7000-8000-00000000ffff' } }] } });
    expect(miss.body.count).toBe(0);
  });

  it('given a run, when the SDK flow writes scenarios, cells, metrics and statuses and closes it, then every read answers what was written', async () => {
    const run = await newRun(a);
    const added = await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, a, { count: 3 });
    expect(added.status).toBe(200);
    expect(added.body.count).toBe(3);
    const scenarios = added.body.scenarios as Array<{ id: string; status: string; run_id: string }>;
    expect(scenarios.every((s) => s.status === 'running' && s.run_id === run.id)).toBe(true);
    // In order: ids ascend with creation.
    expect([...scenarios].map((s) => s.id).sort()).toEqual(scenarios.map((s) => s.id));

    const traceId = hex(16);
    const cell = { run_id: run.id, scenario_id: scenarios[0]!.id, step_key: 'application-def', repeat_idx: 0, status: 'success', trace_id: traceId, hash_id: null, testcase_id: null, error: null };
    const first = await call('POST', `/simple/evaluations/${run.id}/populate`, a, { results: [cell] });
    expect(first.status).toBe(200);
    expect(first.body.results[0]).toMatchObject({ step_key: 'application-def', status: 'success', scenario_id: scenarios[0]!.id });
    // The 32-hex trace id reads back dashed (stored as a UUID, §2.3).
    expect(first.body.results[0].trace_id.replace(/-/g, '')).toBe(traceId);
    // The same cell again: an upsert that keeps the id; absent columns become null, status pending.
    const again = await call('PUT', '/evaluations/results/', a, { results: [{ run_id: run.id, scenario_id: scenarios[0]!.id, step_key: 'application-def' }] });
    expect(again.body.results[0].id).toBe(first.body.results[0].id);
    expect(again.body.results[0].status).toBe('pending');
    expect(again.body.results[0].trace_id).toBeUndefined();

    // A cell for a scenario the run does not have: 400 with the reference's text, nothing stored.
    const ghost = '019a0000-0000-7000-8000-0000000000ff';
    const bad = await call('POST', `/simple/evaluations/${run.id}/populate`, a, { results: [{ ...cell, scenario_id: ghost }] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Cannot populate a result for a scenario that does not exist.');
    // A cell naming another run than the path's: 400.
    const other = await newRun(a);
    expect((await call('POST', `/simple/evaluations/${run.id}/populate`, a, { results: [{ ...cell, run_id: other.id }] })).status).toBe(400);

    // Metrics by key: global, variational; written twice, one row per key.
    const m1 = await call('POST', '/evaluations/metrics/', a, { metrics: [{ run_id: run.id, data: { x: { mean: 1 } } }, { run_id: run.id, scenario_id: scenarios[1]!.id, data: { x: { mean: 0 } } }] });
    expect(m1.body.count).toBe(2);
    const m2 = await call('PATCH', '/evaluations/metrics/', a, { metrics: [{ run_id: run.id, data: { x: { mean: 2 } } }] });
    expect(m2.body.metrics[0].id).toBe(m1.body.metrics.find((m: any) => m.scenario_id === undefined).id);
    const global = await call('POST', '/evaluations/metrics/query', a, { metrics: { run_id: run.id, scenario_ids: false, timestamps: false } });
    expect(global.body).toMatchObject({ count: 1, metrics: [{ data: { x: { mean: 2 } } }] });
    const variational = await call('POST', '/evaluations/metrics/query', a, { metrics: { run_id: run.id, scenario_ids: true } });
    expect(variational.body).toMatchObject({ count: 1, metrics: [{ scenario_id: scenarios[1]!.id }] });
    // A scenario and a timestamp at once is no metric shape: 422.
    expect((await call('POST', '/evaluations/metrics/', a, { metrics: [{ run_id: run.id, scenario_id: scenarios[1]!.id, timestamp: '2026-01-01T00:00:00Z' }] })).status).toBe(422);

    // The SDK closes each scenario by PATCH, then the run with the rolled-up status.
    const patched = await call('PATCH', `/evaluations/scenarios/${scenarios[0]!.id}`, a, { scenario: { id: scenarios[0]!.id, status: 'success' } });
    expect(patched.body).toMatchObject({ count: 1, scenario: { id: scenarios[0]!.id, status: 'success' } });
    const closed = await call('POST', `/evaluations/runs/${run.id}/close?status=success`, a);
    expect(closed.body).toMatchObject({ count: 1, run: { id: run.id, status: 'success', flags: { is_closed: true } } });

    // Closed: every content write is 409 with the reference's nested body; nothing changes.
    const refused = await call('POST', `/simple/evaluations/${run.id}/populate`, a, { results: [cell] });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatchObject({ message: 'Cannot modify a closed evaluation.', run_id: run.id });
    expect((await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, a, { count: 1 })).status).toBe(409);
    expect((await call('PATCH', `/evaluations/scenarios/${scenarios[1]!.id}`, a, { scenario: { id: scenarios[1]!.id, status: 'errors' } })).status).toBe(409);
    expect((await call('POST', '/evaluations/metrics/', a, { metrics: [{ run_id: run.id, data: {} }] })).status).toBe(409);
    const stored = await call('POST', '/evaluations/results/query', a, { result: { run_id: run.id } });
    expect(stored.body.count).toBe(1);
    expect(stored.body.results[0].status).toBe('pending');
    expect((await call('POST', '/evaluations/scenarios/query', a, { scenario: { run_id: run.id } })).body.count).toBe(3);

    // Reopened, it takes writes again.
    expect((await call('POST', `/evaluations/runs/${run.id}/open`, a)).body.run.flags.is_closed).toBe(false);
    expect((await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, a, { count: 1 })).body.count).toBe(1);

    // Deleted with everything it owns.
    expect((await call('DELETE', `/evaluations/runs/${run.id}`, a)).body).toEqual({ count: 1, run_id: run.id });
    expect((await call('GET', `/evaluations/runs/${run.id}`, a)).body).toEqual({ count: 0 });
    const left = await db.query('SELECT (SELECT count(*) FROM evaluation_scenarios WHERE run_id = $1)::int + (SELECT count(*) FROM evaluation_results WHERE run_id = $1)::int + (SELECT count(*) FROM evaluation_metrics WHERE run_id = $1)::int AS n', [run.id]);
    expect(left.rows[0].n).toBe(0);
  });

  it('given a run, when it is read and driven as a simple evaluation, then its steps read as revision maps and the slice routes act on its cells', async () => {
    const run = await newRun(a);
    const view = await call('GET', `/simple/evaluations/${run.id}`, a);
    expect(view.body).toMatchObject({ count: 1, evaluation: { id: run.id, data: {
      status: 'running', query_steps: {}, testset_steps: { [steps[0]!.references.testset_revision!.id]: 'custom' },
      application_steps: { [steps[1]!.references.application_revision!.id]: 'custom' }, evaluator_steps: { [steps[2]!.references.evaluator_revision!.id]: 'custom' }, repeats: 1,
    } } });
    expect((await call('POST', '/simple/evaluations/query', a, { evaluation: { ids: [run.id] } })).body).toMatchObject({ count: 1, evaluations: [{ id: run.id }] });
    expect((await call('POST', `/simple/evaluations/${run.id}/stop`, a)).body.evaluation.flags.is_active).toBe(false);
    const started = (await call('POST', `/simple/evaluations/${run.id}/start`, a)).body.evaluation;
    expect(started).toMatchObject({ flags: { is_active: true }, data: { status: 'running' } });

    const scenarios = (await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, a, { count: 2 })).body.scenarios as Array<{ id: string }>;
    for (const s of scenarios) {
      for (const key of ['application-def', 'evaluator-ghi']) await call('POST', `/simple/evaluations/${run.id}/populate`, a, { results: [{ run_id: run.id, scenario_id: s.id, step_key: key, status: 'success' }] });
    }
    expect((await call('POST', `/simple/evaluations/${run.id}/probe`, a, {})).body.count).toBe(4);
    expect((await call('POST', `/simple/evaluations/${run.id}/probe`, a, { step_keys: ['evaluator-ghi'] })).body.count).toBe(2);
    expect((await call('POST', `/simple/evaluations/${run.id}/probe`, a, { scenario_ids: [] })).body.count).toBe(0);
    // Prune one scenario's evaluator cell (then the refresh, which finds no trace: no rows).
    expect((await call('POST', `/simple/evaluations/${run.id}/prune`, a, { scenario_ids: [scenarios[0]!.id], step_keys: ['evaluator-ghi'] })).status).toBe(204);
    expect((await call('POST', `/simple/evaluations/${run.id}/probe`, a, {})).body.count).toBe(3);
    // Steps: one added, one removed with its cells; repeats set.
    const added = await call('POST', `/simple/evaluations/${run.id}/steps/add`, a, { steps: [{ key: 'evaluator-new', type: 'annotation', origin: 'human' }] });
    expect(added.body.run.flags).toMatchObject({ has_human: true });
    const removed = await call('POST', `/simple/evaluations/${run.id}/steps/remove`, a, { step_keys: ['application-def'] });
    expect(removed.body.run.data.steps.map((x: { key: string }) => x.key)).toEqual(['testset-abc', 'evaluator-ghi', 'evaluator-new']);
    expect((await call('POST', `/simple/evaluations/${run.id}/probe`, a, {})).body.count).toBe(1);
    // The first scenario lost its last cell with the step: it is pruned too.
    expect((await call('POST', '/evaluations/scenarios/query', a, { scenario: { run_id: run.id } })).body.scenarios.map((x: { id: string }) => x.id)).toEqual([scenarios[1]!.id]);
    expect((await call('POST', `/simple/evaluations/${run.id}/repeats/set`, a, { repeats: 3 })).body.run.data.repeats).toBe(3);
    // Scenarios of another run cannot be removed through this one; its own can.
    const other = await newRun(a);
    const [foreign] = (await call('POST', `/simple/evaluations/${other.id}/scenarios/add`, a, { count: 1 })).body.scenarios;
    expect((await call('POST', `/simple/evaluations/${run.id}/scenarios/remove`, a, { scenario_ids: [foreign.id] })).status).toBe(400);
    expect((await call('POST', `/simple/evaluations/${run.id}/scenarios/remove`, a, { scenario_ids: [scenarios[1]!.id] })).status).toBe(204);
    expect((await call('POST', '/evaluations/scenarios/query', a, { scenario: { run_id: run.id } })).body.count).toBe(0);
    // Closed through the simple view: writes 409; opened again; deleted once.
    expect((await call('POST', `/simple/evaluations/${run.id}/close`, a)).body.evaluation.flags.is_closed).toBe(true);
    expect((await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, a, { count: 1 })).status).toBe(409);
    expect((await call('POST', `/simple/evaluations/${run.id}/open`, a)).body.evaluation.flags.is_closed).toBe(false);
    expect((await call('DELETE', `/simple/evaluations/${run.id}`, a)).body).toEqual({ count: 1, evaluation_id: run.id });
    expect((await call('DELETE', `/simple/evaluations/${run.id}`, a)).body).toEqual({ count: 0 });
    expect((await call('GET', `/simple/evaluations/${run.id}`, b)).body).toEqual({ count: 0 });
  });

  it('given a run with cells, when a PATCH drops a step, then that step\'s cells go, and scenarios left without cells with them', async () => {
    const run = await newRun(a);
    const [s1, s2] = (await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, a, { count: 2 })).body.scenarios;
    await call('POST', '/evaluations/results/', a, { results: [
      { run_id: run.id, scenario_id: s1.id, step_key: 'application-def' }, { run_id: run.id, scenario_id: s1.id, step_key: 'evaluator-ghi' },
      { run_id: run.id, scenario_id: s2.id, step_key: 'evaluator-ghi' },
    ] });
    const edited = await call('PATCH', `/evaluations/runs/${run.id}`, a, { run: { id: run.id, data: { steps: steps.slice(0, 2) } } });
    expect(edited.body.run.flags).toMatchObject({ has_evaluators: false });
    expect((await call('POST', '/evaluations/results/query', a, { result: { run_id: run.id } })).body.results.map((r: { step_key: string }) => r.step_key)).toEqual(['application-def']);
    expect((await call('POST', '/evaluations/scenarios/query', a, { scenario: { run_id: run.id } })).body.scenarios.map((x: { id: string }) => x.id)).toEqual([s1.id]);
    // A PATCH without data keeps the steps and the cells.
    await call('PATCH', `/evaluations/runs/${run.id}`, a, { run: { id: run.id, name: 'renamed' } });
    expect((await call('POST', '/evaluations/results/query', a, { result: { run_id: run.id } })).body.count).toBe(1);
  });

  it('given another project\'s run, when a key of this project reads or writes it, then it is unknown and unchanged', async () => {
    const run = await newRun(a);
    const [s] = (await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, a, { count: 1 })).body.scenarios;
    expect((await call('GET', `/evaluations/runs/${run.id}`, b)).body).toEqual({ count: 0 });
    expect((await call('GET', `/evaluations/scenarios/${s.id}`, b)).body).toEqual({ count: 0 });
    expect((await call('POST', '/evaluations/runs/query', b, { run: { ids: [run.id] } })).body.count).toBe(0);
    expect((await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, b, { count: 2 })).body).toEqual({ count: 0, scenarios: [] });
    expect((await call('POST', '/evaluations/results/', b, { results: [{ run_id: run.id, scenario_id: s.id, step_key: 'x' }] })).body).toEqual({ count: 0, results: [] });
    expect((await call('POST', `/evaluations/runs/${run.id}/close`, b)).body).toEqual({ count: 0 });
    expect((await call('DELETE', `/evaluations/runs/${run.id}`, b)).body).toEqual({ count: 0 });
    expect((await call('GET', `/evaluations/runs/${run.id}`, a)).body.run.flags.is_closed).toBe(false);
    expect((await call('POST', '/evaluations/scenarios/query', a, { scenario: { run_id: run.id } })).body.count).toBe(1);
  });

  it('given a hobby organization (20 evaluation runs a month), when it creates a 21st run, then 429 and nothing is stored; the runs count in usage', async () => {
    const hobby = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    const created = await call('POST', '/evaluations/runs/', hobby, { runs: Array.from({ length: 19 }, (_, i) => ({ name: `r${i}` })) });
    expect(created.body.count).toBe(19);
    expect((await call('POST', '/evaluations/runs/', hobby, { runs: [{ name: 'twentieth' }] })).status).toBe(200);
    const refused = await call('POST', '/evaluations/runs/', hobby, { runs: [{ name: 'over' }] });
    expect(refused).toEqual({ status: 429, body: { detail: 'You have reached your monthly evaluations quota.' } });
    expect((await call('POST', '/evaluations/runs/query', hobby, {})).body.count).toBe(20);
    expect((await call('GET', '/billing/usage', hobby)).body.evaluations_run).toMatchObject({ value: 20, limit: 20 });
  });

  it('given bad input, when it is sent, then 422 naming the field and nothing is appended', async () => {
    const before = (await db.query('SELECT count(*)::int AS n FROM evaluation_events')).rows[0].n;
    expect((await call('GET', '/evaluations/runs/not-a-uuid', a)).status).toBe(422);
    expect((await call('POST', '/evaluations/runs/', a, { runs: [{ status: 'sideways' }] })).status).toBe(422);
    expect((await call('POST', '/evaluations/runs/', a, { runs: [{ data: { steps: [{ key: 'k', type: 'nope' }] } }] })).status).toBe(422);
    expect((await call('POST', '/evaluations/results/', a, { results: [{ run_id: 'x', scenario_id: 'y', step_key: 'z' }] })).status).toBe(422);
    expect((await call('POST', '/evaluations/results/', a, { results: [{ run_id: '019a0000-0000-7000-8000-000000000001', scenario_id: '019a0000-0000-7000-8000-000000000001', step_key: 'z', trace_id: 'abc' }] })).status).toBe(422);
    expect((await call('POST', '/simple/evaluations/019a0000-0000-7000-8000-000000000001/scenarios/add', a, { count: 10_001 })).status).toBe(422);
    expect((await call('POST', '/evaluations/runs/', a, { runs: [{ name: 'x'.repeat(100_000) }] })).status).toBe(422);
    expect((await db.query('SELECT count(*)::int AS n FROM evaluation_events')).rows[0].n).toBe(before);
  });
});
