// evaluations.v1 is the system of record of evaluation runs: replaying it from the start into an
// empty Postgres must rebuild exactly the read model the live projector built, verdicts included.
// Runs are written through the API the way the SDK writes them (scenarios added, cells populated and
// rewritten, metrics set by key, scenario statuses patched, the run closed and one deleted), then
// events the API would refuse early (a cell written to a closed run, a cell for a missing scenario,
// a scenario of another project's run, malformed ids) are appended straight to the topic; then a
// second projector, under another consumer name, rebuilds into a fresh database and every table and
// verdict is compared row for row.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEvent, evaluationRunKey, topicsFor, uuidv7, type EventPayloads, type EventType } from '@llm/events';
import { createKafkaClient, type KafkaClient } from '@llm/kafka';
import { createLogger } from '@llm/logging';
import { migratePostgres, openPostgres, type Pool } from '@llm/postgres';
import { ACCOUNTS_MIGRATIONS } from '@llm/service-projector-accounts';
import { createEvaluationsProjector } from '@llm/service-projector-evaluations';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let kafka: KafkaClient;
let rebuilt: Pool | undefined;
let live: Pool;

beforeAll(async () => {
  t = await startTestApp();
  kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'evaluations-replay-test' });
  live = openPostgres(t.databaseUrl);
});
afterAll(async () => { await rebuilt?.end(); await live?.end(); await t?.stop(); });

async function call(method: string, path: string, acc: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

const TABLES: Array<[string, string, string?]> = [
  ['evaluation_runs', 'id'], ['evaluation_scenarios', 'id'], ['evaluation_results', 'id'], ['evaluation_metrics', 'id'],
  // Dispatches without the workers' lease bookkeeping (lease_until, attempts): the facts are the log's.
  ['evaluation_dispatches', 'id', 'id, run_id, project_id, slice, overwrite, created_at, created_by_id, finished_at, outcome'],
];
const dump = async (pool: Pool, table: string, order: string, columns = '*'): Promise<unknown[]> => (await pool.query(`SELECT ${columns} FROM ${table} ORDER BY ${order}`)).rows;

/** A run the server executes (mock application and evaluator): one dispatch, finished on the log. */
async function serverRun(acc: TestAccount): Promise<string> {
  const mock = (parameters: Record<string, unknown>) => ({ uri: 'agenta:custom:mock:v0', parameters });
  const ts = (await call('POST', '/simple/testsets/', acc, { testset: { slug: `r-${hex(4)}`, data: { testcases: [{ data: { q: 1 } }, { data: { q: 2 } }] } } })).body.testset;
  const app = (await call('POST', '/simple/applications/', acc, { application: { slug: `r-${hex(4)}`, name: 'A', data: mock({ key: 'echo' }) } })).body.application;
  const ev = (await call('POST', '/simple/evaluators/', acc, { evaluator: { slug: `r-${hex(4)}`, name: 'E', data: mock({ key: 'pass' }) } })).body.evaluator;
  const rev = async (entity: string, id: string): Promise<string> => (await call('POST', `/${entity}s/revisions/retrieve`, acc, { [`${entity}_ref`]: { id } })).body[`${entity}_revision`].id;
  const created = await call('POST', '/simple/evaluations/', acc, { evaluation: { data: {
    testset_steps: [await rev('testset', ts.id)], application_steps: [await rev('application', app.id)], evaluator_steps: { [await rev('evaluator', ev.id)]: 'auto' },
  } } });
  expect(created.status).toBe(200);
  const runId = created.body.evaluation.id as string;
  await eventually(async () => (await live.query('SELECT count(*)::int AS n FROM evaluation_dispatches WHERE run_id = $1 AND finished_at IS NOT NULL', [runId])).rows[0].n, (n) => n === 1, 60_000);
  return runId;
}
const outcomes = async (pool: Pool): Promise<unknown[]> =>
  (await pool.query('SELECT event_id, type, run_id, project_id, status, rejection, rejection_code, rejection_details FROM evaluation_events ORDER BY partition, "offset"')).rows;

/** One SDK-like run: three scenarios, cells, metrics, statuses; closed with the rolled-up status. */
async function sdkRun(acc: TestAccount): Promise<{ runId: string; scenarioIds: string[] }> {
  const steps = [
    { key: 'testset-a', type: 'input', origin: 'custom', references: { testset_revision: { id: uuidv7() } } },
    { key: 'application-b', type: 'invocation', origin: 'custom', references: { application_revision: { id: uuidv7() } } },
    { key: 'evaluator-c', type: 'annotation', origin: 'custom', references: { evaluator_revision: { id: uuidv7() } } },
  ];
  const run = (await call('POST', '/evaluations/runs/', acc, { runs: [{ name: 'SDK Eval', status: 'running', data: { steps, repeats: 1 } }] })).body.runs[0];
  const scenarios = (await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, acc, { count: 3 })).body.scenarios as Array<{ id: string }>;
  for (const [i, s] of scenarios.entries()) {
    for (const step of steps) {
      const r = await call('POST', `/simple/evaluations/${run.id}/populate`, acc, { results: [{ run_id: run.id, scenario_id: s.id, step_key: step.key, repeat_idx: 0, status: 'success', trace_id: step.type === 'input' ? null : hex(16), testcase_id: step.type === 'input' ? randomUUID() : null }] });
      expect(r.status).toBe(200);
    }
    expect((await call('POST', '/evaluations/metrics/', acc, { metrics: [{ run_id: run.id, scenario_id: s.id, data: { 'evaluator-c': { score: { mean: i } } } }] })).status).toBe(200);
    expect((await call('PATCH', `/evaluations/scenarios/${s.id}`, acc, { scenario: { id: s.id, status: i === 2 ? 'errors' : 'success' } })).status).toBe(200);
  }
  // A cell rewritten (an upsert keeps its id), a global metric written twice.
  expect((await call('PUT', '/evaluations/results/', acc, { results: [{ run_id: run.id, scenario_id: scenarios[0]!.id, step_key: 'evaluator-c', status: 'failure', error: { message: 'boom' } }] })).status).toBe(200);
  for (const mean of [1, 2]) expect((await call('POST', '/evaluations/metrics/', acc, { metrics: [{ run_id: run.id, data: { 'evaluator-c': { score: { mean } } } }] })).status).toBe(200);
  expect((await call('POST', `/evaluations/runs/${run.id}/close?status=errors`, acc)).status).toBe(200);
  return { runId: run.id, scenarioIds: scenarios.map((s) => s.id) };
}

describe('evaluations replay', () => {
  it('when evaluations.v1 is replayed into an empty database, then every table and every verdict is the same', async () => {
    const [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
    const first = await sdkRun(a);
    const second = await sdkRun(b);
    // An edited run, a deleted scenario, a deleted cell, a deleted metric, a deleted run.
    const third = await sdkRun(a);
    expect((await call('POST', `/evaluations/runs/${third.runId}/open`, a)).status).toBe(200);
    expect((await call('PATCH', `/evaluations/runs/${third.runId}`, a, { run: { id: third.runId, name: 'renamed', flags: { is_live: true } } })).status).toBe(200);
    expect((await call('DELETE', `/evaluations/scenarios/${third.scenarioIds[2]}`, a)).body.count).toBe(1);
    const cells = (await call('POST', '/evaluations/results/query', a, { result: { run_id: third.runId } })).body.results as Array<{ id: string }>;
    expect((await call('DELETE', `/evaluations/results/${cells[0]!.id}`, a)).body.count).toBe(1);
    const metrics = (await call('POST', '/evaluations/metrics/query', a, { metrics: { run_id: third.runId } })).body.metrics as Array<{ id: string }>;
    expect((await call('DELETE', `/evaluations/metrics/${metrics[0]!.id}`, a)).body.count).toBe(1);
    const executed = await serverRun(a);
    expect((await call('GET', `/evaluations/runs/${executed}`, a)).body.run.status).toBe('success');
    const gone = await sdkRun(b);
    expect((await call('DELETE', `/evaluations/runs/${gone.runId}`, b)).body.count).toBe(1);
    // The API refuses a write to a closed run before anything reaches the log.
    expect((await call('POST', `/simple/evaluations/${first.runId}/populate`, a, { results: [{ run_id: first.runId, scenario_id: first.scenarioIds[0], step_key: 'x' }] })).status).toBe(409);

    // Losers appended straight to the topic: the projector refuses them with typed codes, on replay too.
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 1, accountsPartitions: 1, spansRetentionMs: 1, dlqRetentionMs: 1 });
    const producer = await kafka.producer();
    const injected: string[] = [];
    const append = async <T extends EventType>(type: T, projectId: string, runId: string, payload: EventPayloads[T]): Promise<void> => {
      const eventId = randomUUID();
      injected.push(eventId);
      await producer.send(topics.evaluations, [{ key: evaluationRunKey(projectId, runId), value: encodeEvent(type, payload, { eventId, projectId, actorId: 'replay-test' }) }]);
    };
    const cell = (scenarioId: string): EventPayloads['evaluations.results.upserted']['results'][number] => ({
      result_id: uuidv7(), scenario_id: scenarioId, step_key: 'late', repeat_idx: 0, status: 'success', trace_id: '', hash_id: '', testcase_id: '',
      error_json: '', timestamp: '', interval: -1, flags_json: '', tags_json: '', meta_json: '',
    });
    // A cell for a closed run (a close that won the race).
    await append('evaluations.results.upserted', a.projectId, first.runId, { run_id: first.runId, results: [cell(first.scenarioIds[0]!)] });
    // A cell for a scenario the (open) run does not have.
    await append('evaluations.results.upserted', a.projectId, third.runId, { run_id: third.runId, results: [cell(uuidv7())] });
    // Another project's run named with this project's id: unknown.
    await append('evaluations.scenarios.added', a.projectId, second.runId, { run_id: second.runId, scenarios: [{ scenario_id: uuidv7(), status: 'running', timestamp: '', interval: -1, flags_json: '', tags_json: '', meta_json: '' }] });
    // A dispatch of a closed run (refused: closed), one with a slice that is no JSON (malformed).
    await append('evaluations.run.dispatched', a.projectId, first.runId, { run_id: first.runId, dispatch_id: uuidv7(), slice_json: '{}', overwrite: false });
    await append('evaluations.run.dispatched', a.projectId, third.runId, { run_id: third.runId, dispatch_id: uuidv7(), slice_json: '{no', overwrite: false });
    // An inferred schema written into the open run's steps (applied), and one that is no JSON (refused).
    await append('evaluations.run.schemas_inferred', a.projectId, third.runId, { run_id: third.runId, schemas_json: JSON.stringify({ 'evaluator-c': { type: 'object', properties: { score: { type: 'number' } } } }) });
    await append('evaluations.run.schemas_inferred', a.projectId, third.runId, { run_id: third.runId, schemas_json: '{' });
    // A run that already exists; an id that is no UUID.
    await append('evaluations.run.created', a.projectId, first.runId, { run: { run_id: first.runId, name: '', description: '', status: 'pending', flags_json: '{}', tags_json: '', meta_json: '', data_json: '' } });
    await append('evaluations.scenarios.deleted', a.projectId, third.runId, { run_id: third.runId, scenario_ids: ['not-a-uuid'] });
    await eventually(async () => (await live.query('SELECT count(*)::int AS n FROM evaluation_events WHERE event_id = ANY($1::uuid[])', [injected])).rows[0].n, (n) => n === injected.length, 30_000);
    const refused = (await live.query('SELECT rejection_code FROM evaluation_events WHERE event_id = ANY($1::uuid[]) ORDER BY rejection_code', [injected])).rows.map((r) => r.rejection_code);
    expect(refused).toEqual(['evaluation_event_malformed', 'evaluation_event_malformed', 'evaluation_event_malformed', 'evaluation_run_closed', 'evaluation_run_closed', 'evaluation_run_exists', 'evaluation_run_not_found', 'evaluation_scenario_missing', null]);
    const steps = (await live.query('SELECT data->\'steps\' AS steps FROM evaluation_runs WHERE id = $1', [third.runId])).rows[0].steps;
    expect(steps[2].schemas.outputs.properties.score).toEqual({ type: 'number' });

    // Rebuild into a fresh database from offset 0.
    const id = hex(4);
    const server = new pg.Client({ connectionString: t.databaseUrl });
    await server.connect();
    await server.query(`CREATE DATABASE r_${id}`);
    await server.end();
    rebuilt = openPostgres(t.databaseUrl.replace(/\/[^/]*$/, `/r_${id}`));
    // The shared database's tables the projector needs (projector_offsets), without any accounts row:
    // evaluation tables name no accounts table, so the rebuild does not wait for an accounts replay.
    await migratePostgres(rebuilt, ACCOUNTS_MIGRATIONS);
    const projector = createEvaluationsProjector({ kafka, producer, pool: rebuilt, topics, log: createLogger({ name: 'replay', level: 'silent' }), consumerName: `replay-${id}` });
    await projector.start();
    const expected = await outcomes(live);
    await eventually(async () => (await outcomes(rebuilt!)).length, (n) => n === expected.length, 30_000);
    await projector.stop();
    await producer.close();

    expect(await outcomes(rebuilt)).toEqual(expected);
    for (const [table, order, columns] of TABLES) {
      const rows = await dump(live, table, order, columns);
      expect(rows.length, table).toBeGreaterThan(0);
      expect({ table, rows: await dump(rebuilt, table, order, columns) }).toEqual({ table, rows });
    }
    // A worker on the rebuilt database owes nothing: every dispatch replayed was finished on the log.
    expect((await rebuilt.query('SELECT count(*)::int AS n FROM evaluation_dispatches WHERE finished_at IS NULL')).rows[0].n).toBe(0);
  });
});
