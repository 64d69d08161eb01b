// Evaluation metrics computed from traces (reference evaluations §3.4), on the real stack: the
// application's and the evaluator's spans go through ingest into ClickHouse, the run's cells name
// their traces, and POST /evaluations/metrics/refresh summarises the root spans per step — per
// scenario, then for the whole run. A second refresh with the same cells appends nothing; a cell
// rewritten changes the values; the outputs schema declared on the step drives the metric types;
// a closed run answers 409; another project's run answers no rows.
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

/** One root span with these outputs; answers its trace id. */
async function trace(acc: TestAccount, name: string, outputs: Record<string, unknown>): Promise<string> {
  const trace_id = hex(16);
  const r = await call('POST', '/tracing/spans/ingest', acc, { spans: [{ trace_id, span_id: hex(8), span_name: name, attributes: { ag: { data: { inputs: { q: name }, outputs } } } }] });
  expect(r.status).toBe(202);
  return trace_id;
}

const refreshEvents = async (runId: string): Promise<number> =>
  (await db.query("SELECT count(*)::int AS n FROM evaluation_events WHERE run_id = $1 AND type = 'evaluations.metrics.refreshed' AND status = 'applied'", [runId])).rows[0].n;

describe('evaluation metrics', () => {
  it('given cells with application and evaluator traces, when metrics are refreshed, then each step is summarised from its spans, once', async () => {
    const steps = [
      { key: 'testset-t', type: 'input', origin: 'custom' },
      { key: 'application-a', type: 'invocation', origin: 'custom' },
      { key: 'evaluator-e', type: 'annotation', origin: 'custom' },
    ];
    const run = (await call('POST', '/evaluations/runs/', a, { runs: [{ name: 'metrics', status: 'running', data: { steps } }] })).body.runs[0];
    const scenarios = (await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, a, { count: 3 })).body.scenarios as Array<{ id: string }>;
    const scores = [1, 1, 0];
    for (const [i, s] of scenarios.entries()) {
      const app = await trace(a, 'app', { capital: `c${i}` });
      const ev = await trace(a, 'exact', { score: scores[i], success: scores[i] === 1 });
      for (const [stepKey, traceId] of [['application-a', app], ['evaluator-e', ev]] as const) {
        expect((await call('POST', `/simple/evaluations/${run.id}/populate`, a, { results: [{ run_id: run.id, scenario_id: s.id, step_key: stepKey, repeat_idx: 0, status: 'success', trace_id: traceId }] })).status).toBe(200);
      }
      // The SDK refreshes the scenario right after writing its cells: the refresh waits for the spans.
      const r = await call('POST', '/evaluations/metrics/refresh', a, { metrics: { run_id: run.id, scenario_id: s.id } });
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(1);
      const m = r.body.metrics[0];
      expect(m).toMatchObject({ run_id: run.id, scenario_id: s.id, status: 'success' });
      expect(m.data['evaluator-e']['attributes.ag.data.outputs.score']).toMatchObject({ type: 'numeric/continuous', count: 1, mean: scores[i] });
      expect(m.data['evaluator-e']['attributes.ag.data.outputs.success']).toMatchObject({ type: 'binary' });
      // The input step has no traces; the application step is summarised too.
      expect(m.data['testset-t']).toBeUndefined();
      expect(m.data['application-a']).toBeDefined();
    }
    // The evaluator's outputs schema was inferred from its first traces and written into the run's step.
    const stored = (await call('GET', `/evaluations/runs/${run.id}`, a)).body.run;
    expect(stored.data.steps[2].schemas.outputs).toEqual({ type: 'object', properties: { score: { type: 'number' }, success: { type: 'boolean' } } });
    expect(stored.data.steps[0].schemas).toBeUndefined();
    const global = await call('POST', '/evaluations/metrics/refresh', a, { metrics: { run_id: run.id, scenario_id: null } });
    expect(global.body.count).toBe(1);
    const score = global.body.metrics[0].data['evaluator-e']['attributes.ag.data.outputs.score'];
    expect(score).toMatchObject({ count: 3, min: 0, max: 1 });
    expect(score.mean).toBeCloseTo(2 / 3, 10);

    // Idempotent: the same cells again append nothing and answer the same row.
    const events = await refreshEvents(run.id);
    const again = await call('POST', '/evaluations/metrics/refresh', a, { metrics: { run_id: run.id } });
    expect(again.body.metrics[0]).toEqual(global.body.metrics[0]);
    expect(await refreshEvents(run.id)).toBe(events);
    // Read back the way the SDK does: the global row, then the per-scenario rows.
    expect((await call('POST', '/evaluations/metrics/query', a, { metrics: { run_id: run.id, scenario_ids: false, timestamps: false } })).body).toMatchObject({ count: 1, metrics: [{ id: global.body.metrics[0].id }] });
    expect((await call('POST', '/evaluations/metrics/query', a, { metrics: { run_id: run.id, scenario_ids: true } })).body.count).toBe(3);

    // A cell rewritten to another trace: the next refresh follows it.
    const better = await trace(a, 'exact', { score: 1, success: true });
    await call('POST', `/simple/evaluations/${run.id}/populate`, a, { results: [{ run_id: run.id, scenario_id: scenarios[2]!.id, step_key: 'evaluator-e', repeat_idx: 0, status: 'success', trace_id: better }] });
    const after = await call('POST', '/evaluations/metrics/refresh', a, { metrics: { run_ids: [run.id] } });
    expect(after.body.metrics[0].data['evaluator-e']['attributes.ag.data.outputs.score']).toMatchObject({ count: 3, mean: 1 });

    // Another project: no rows. Closed: 409.
    expect((await call('POST', '/evaluations/metrics/refresh', b, { metrics: { run_id: run.id } })).body).toEqual({ count: 0, metrics: [] });
    await call('POST', `/evaluations/runs/${run.id}/close?status=success`, a);
    const closed = await call('POST', '/evaluations/metrics/refresh', a, { metrics: { run_id: run.id } });
    expect(closed.status).toBe(409);
    expect(closed.body.detail.message).toBe('Cannot modify a closed evaluation.');
  });

  it('given a step that declares its outputs schema, when refreshed, then the metric types follow the schema; a run without traces has no rows', async () => {
    const steps = [{ key: 'evaluator-s', type: 'annotation', origin: 'custom', schemas: { outputs: { type: 'object', properties: { grade: { type: 'string', enum: ['a', 'b'] }, points: { type: 'integer' } } } } }];
    const run = (await call('POST', '/evaluations/runs/', a, { runs: [{ data: { steps } }] })).body.runs[0];
    const [s1, s2] = (await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, a, { count: 2 })).body.scenarios;
    expect((await call('POST', '/evaluations/metrics/refresh', a, { metrics: { run_id: run.id } })).body).toEqual({ count: 0, metrics: [] });
    for (const [s, grade, points] of [[s1, 'a', 3], [s2, 'b', 5]] as const) {
      const id = await trace(a, 'grader', { grade, points });
      await call('POST', '/evaluations/results/', a, { results: [{ run_id: run.id, scenario_id: s.id, step_key: 'evaluator-s', status: 'success', trace_id: id }] });
    }
    const r = await call('POST', '/evaluations/metrics/refresh', a, { metrics: { run_id: run.id } });
    const data = r.body.metrics[0].data['evaluator-s'];
    expect(data['attributes.ag.data.outputs.grade']).toMatchObject({ type: 'categorical/single', count: 2 });
    expect(data['attributes.ag.data.outputs.points']).toMatchObject({ type: 'numeric/discrete', count: 2, mean: 4 });
    // Unknown runs and no run: no rows.
    expect((await call('POST', '/evaluations/metrics/refresh', a, { metrics: { run_id: '019a0000-0000-7000-8000-000000000009' } })).body).toEqual({ count: 0, metrics: [] });
    expect((await call('POST', '/evaluations/metrics/refresh', a, { metrics: {} })).body).toEqual({ count: 0, metrics: [] });
  });
});
