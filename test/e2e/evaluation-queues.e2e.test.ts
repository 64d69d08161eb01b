// Queues of evaluation runs (reference evaluations §2.8, §3.5) on the real stack: the default queue
// the server keeps for runs with human annotation steps (created, archived, unarchived with the
// run's steps), the default-queue policy (one per run, no filters, never demoted or deleted), user
// queues with lanes and batches and the scenarios each user is given, closed runs, and tenancy.
import { randomUUID } from 'node:crypto';
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

const input = { key: 'testset-t', type: 'input', origin: 'custom', references: { testset_revision: { id: randomUUID() } } };
const auto = { key: 'evaluator-auto', type: 'annotation', origin: 'auto', references: { evaluator_revision: { id: randomUUID() } } };
const human = { key: 'evaluator-human', type: 'annotation', origin: 'human', references: { evaluator_revision: { id: randomUUID() } } };

async function newRun(acc: TestAccount, steps: unknown[]): Promise<any> {
  const r = await call('POST', '/evaluations/runs/', acc, { runs: [{ name: 'Review', description: 'people', status: 'running', data: { steps } }] });
  expect(r.status).toBe(200);
  return r.body.runs[0];
}
const defaultQueue = async (acc: TestAccount, runId: string) => (await call('GET', `/evaluations/runs/${runId}/queues/default`, acc)).body;
const runFlags = async (acc: TestAccount, runId: string) => (await call('GET', `/evaluations/runs/${runId}`, acc)).body.run.flags;

describe('evaluation queues', () => {
  it('given a run with a human step, then it has one active default queue, archived when the step goes and unarchived when it comes back', async () => {
    const run = await newRun(a, [input, auto, human]);
    const first = await defaultQueue(a, run.id);
    expect(first).toMatchObject({ count: 1, queue: { run_id: run.id, name: 'Review', description: 'people', status: 'running', flags: { is_default: true, is_sequential: false } } });
    expect(first.queue.data).toBeUndefined();
    expect(await runFlags(a, run.id)).toMatchObject({ has_human: true, is_queue: true });

    expect((await call('PATCH', `/evaluations/runs/${run.id}`, a, { run: { id: run.id, data: { steps: [input, auto] } } })).status).toBe(200);
    expect(await defaultQueue(a, run.id)).toEqual({ count: 0 });
    expect(await runFlags(a, run.id)).toMatchObject({ has_human: false, is_queue: false });
    const archived = (await call('GET', `/evaluations/queues/${first.queue.id}`, a)).body;
    expect(archived.queue.deleted_at).toEqual(expect.any(String));
    expect((await call('POST', '/evaluations/queues/query', a, { queue: { run_id: run.id } })).body.count).toBe(0);
    expect((await call('POST', '/evaluations/queues/query', a, { queue: { run_id: run.id, include_archived: true } })).body.count).toBe(1);

    expect((await call('PATCH', `/evaluations/runs/${run.id}`, a, { run: { id: run.id, data: { steps: [input, human] } } })).status).toBe(200);
    const back = await defaultQueue(a, run.id);
    expect(back.queue.id).toBe(first.queue.id);
    expect(back.queue.deleted_at).toBeUndefined();
    expect(await runFlags(a, run.id)).toMatchObject({ is_queue: true });

    // A run without human steps has none.
    expect(await defaultQueue(a, (await newRun(a, [input, auto])).id)).toEqual({ count: 0 });
  });

  it('when clients write queues, then the default-queue policy holds and user queues split scenarios between lanes', async () => {
    const run = await newRun(a, [input, human]);
    const def = (await defaultQueue(a, run.id)).queue;
    const second = await call('POST', '/evaluations/queues/', a, { queues: [{ run_id: run.id, flags: { is_default: true } }] });
    expect(second.status).toBe(409);
    const demoted = await call('PATCH', `/evaluations/queues/${def.id}`, a, { queue: { id: def.id, flags: { is_default: false } } });
    expect(demoted).toMatchObject({ status: 409, body: { detail: { message: 'default queues cannot be demoted' } } });
    const filtered = await call('PATCH', `/evaluations/queues/${def.id}`, a, { queue: { id: def.id, data: { step_keys: ['evaluator-human'] } } });
    expect(filtered.status).toBe(422);
    expect(filtered.body.detail[0].msg).toBe('default queues cannot filter scenarios, steps, assignments, or batches');
    expect(await call('DELETE', `/evaluations/queues/${def.id}`, a)).toMatchObject({ status: 409, body: { detail: { message: 'default queues must be archived, not hard deleted' } } });
    // A rename is fine; a body id other than the path's is {count: 0}.
    expect((await call('PATCH', `/evaluations/queues/${def.id}`, a, { queue: { id: def.id, name: 'Renamed' } })).body.queue).toMatchObject({ name: 'Renamed', flags: { is_default: true } });
    expect((await call('PATCH', `/evaluations/queues/${def.id}`, a, { queue: { id: randomUUID(), name: 'x' } })).body).toEqual({ count: 0 });

    const scenarios = (await call('POST', `/simple/evaluations/${run.id}/scenarios/add`, a, { count: 4 })).body.scenarios.map((s: { id: string }) => s.id);
    const [u1, u2] = [randomUUID(), randomUUID()];
    const created = await call('POST', '/evaluations/queues/', a, { queues: [{ run_id: run.id, name: 'Pairs', flags: { is_sequential: true }, data: { user_ids: [[u1, u2]], batch_size: 2 } }] });
    expect(created.status).toBe(200);
    const pairs = created.body.queues[0];
    expect(pairs).toMatchObject({ name: 'Pairs', flags: { is_default: false, is_sequential: true }, data: { user_ids: [[u1, u2]], batch_size: 2 } });
    const given = async (user?: string, extra: Record<string, unknown> = {}) =>
      (await call('POST', `/evaluations/queues/${pairs.id}/scenarios/query`, a, { ...(user ? { queue: { user_id: user } } : {}), ...extra })).body.scenarios.map((s: { id: string }) => s.id);
    expect(await given(u1)).toEqual([scenarios[0], scenarios[2]]);
    expect(await given(u2)).toEqual([scenarios[1], scenarios[3]]);
    expect(await given()).toEqual(scenarios);
    expect(await given(randomUUID())).toEqual([]);
    expect(await given(undefined, { windowing: { next: scenarios[1], limit: 2 } })).toEqual([scenarios[2], scenarios[3]]);
    expect(await given(undefined, { scenario: { status: 'success' } })).toEqual([]);
    const mismatch = await call('POST', `/evaluations/queues/${pairs.id}/scenarios/query`, a, { queue: { id: def.id } });
    expect(mismatch).toMatchObject({ status: 400 });
    expect(JSON.stringify(mismatch.body)).toContain('queue_id in path must match queue.id in request body');

    // Queries: by user in a lane, by name (case-sensitive), by flags.
    expect((await call('POST', '/evaluations/queues/query', a, { queue: { user_id: u2 } })).body.queues.map((q: { id: string }) => q.id)).toEqual([pairs.id]);
    expect((await call('POST', '/evaluations/queues/query', a, { queue: { run_id: run.id, name: 'Pai' } })).body.count).toBe(1);
    expect((await call('POST', '/evaluations/queues/query', a, { queue: { run_id: run.id, name: 'pai' } })).body.count).toBe(0);
    expect((await call('POST', '/evaluations/queues/query', a, { queue: { run_id: run.id, flags: { is_default: true } } })).body.queues.map((q: { id: string }) => q.id)).toEqual([def.id]);

    // Closed: no new queue, no edit (409); deleting a user queue is allowed.
    expect((await call('POST', `/evaluations/runs/${run.id}/close`, a)).status).toBe(200);
    expect((await call('POST', '/evaluations/queues/', a, { queues: [{ run_id: run.id, name: 'late' }] })).status).toBe(409);
    expect((await call('PATCH', '/evaluations/queues/', a, { queues: [{ id: pairs.id, name: 'late' }] })).status).toBe(409);
    expect((await call('DELETE', '/evaluations/queues/', a, { queue_ids: [pairs.id, randomUUID()] })).body).toEqual({ count: 1, queue_ids: [pairs.id] });
    expect((await call('GET', `/evaluations/queues/${pairs.id}`, a)).body).toEqual({ count: 0 });

    // Tenancy: another project sees and changes nothing.
    expect((await call('GET', `/evaluations/queues/${def.id}`, b)).body).toEqual({ count: 0 });
    expect(await defaultQueue(b, run.id)).toEqual({ count: 0 });
    expect((await call('POST', '/evaluations/queues/query', b, {})).body.queues.map((q: { id: string }) => q.id)).not.toContain(def.id);
    expect((await call('POST', '/evaluations/queues/', b, { queues: [{ run_id: run.id, name: 'theirs' }] })).body).toEqual({ count: 0, queues: [] });
    expect((await call('DELETE', `/evaluations/queues/${def.id}`, b)).body).toEqual({ count: 0 });
    expect((await call('POST', `/evaluations/queues/${def.id}/scenarios/query`, b, {})).body).toEqual({ count: 0, scenarios: [] });
  });

  it('when simple queues are created, then each builds its run and queue; traces and testcases are added to direct ones, testsets fill source-backed ones', async () => {
    const ev = (await call('POST', '/simple/evaluators/', a, { evaluator: { slug: `h-${randomUUID().slice(0, 8)}`, name: 'Human', data: { uri: 'agenta:custom:feedback:v0', schemas: { outputs: { type: 'object', properties: { ok: { type: 'boolean' } } } } } } })).body.evaluator;
    const evRev = (await call('POST', '/evaluators/revisions/retrieve', a, { evaluator_ref: { id: ev.id } })).body.evaluator_revision;
    const ts = (await call('POST', '/simple/testsets/', a, { testset: { slug: `q-${randomUUID().slice(0, 8)}`, data: { testcases: [{ data: { q: 1 } }, { data: { q: 2 } }, { data: { q: 3 } }] } } })).body.testset;
    const tsRev = (await call('POST', '/testsets/revisions/retrieve', a, { testset_ref: { id: ts.id } })).body.testset_revision;

    // The source rules (422 texts of the reference), no evaluator ({count: 0}), no human evaluator (422).
    const refusal = async (data: Record<string, unknown>) => { const r = await call('POST', '/simple/queues/', a, { queue: { data } }); return r.status === 422 ? r.body.detail[0].msg : r.body; };
    expect(await refusal({ queries: [randomUUID()], testsets: [tsRev.id], evaluators: [evRev.id] })).toBe('simple queue source must be either queries or testsets');
    expect(await refusal({ evaluators: [evRev.id] })).toBe('simple queue requires kind, queries, or testsets');
    expect(await refusal({ kind: 'traces', testsets: [tsRev.id], evaluators: [evRev.id] })).toBe('simple queue source must not include kind alongside queries or testsets');
    expect(await refusal({ kind: 'queries', testsets: [tsRev.id], evaluators: [evRev.id] })).toBe("testset-backed queues must use kind='testsets'");
    expect(await refusal({ kind: 'queries', evaluators: [evRev.id] })).toBe("kind='queries' requires query sources");
    expect(await refusal({ kind: 'traces', evaluators: { [evRev.id]: 'auto' } })).toBe('simple queues must have at least one human evaluator');
    expect(await refusal({ kind: 'traces' })).toEqual({ count: 0 });
    expect(await refusal({ kind: 'traces', evaluators: [randomUUID()] })).toEqual({ count: 0 });

    // A direct traces queue: the run's default queue; traces become pending scenarios.
    const traces = await call('POST', '/simple/queues/', a, { queue: { name: 'Spot checks', data: { kind: 'traces', evaluators: [evRev.id] } } });
    expect(traces.status).toBe(200);
    const tq = traces.body.queue;
    expect(tq).toMatchObject({ name: 'Spot checks', status: 'running', flags: { is_default: true }, data: { kind: 'traces', evaluators: { [evRev.id]: 'human' }, repeats: 1 } });
    expect(await runFlags(a, tq.run_id)).toMatchObject({ is_queue: true, has_traces: true, has_human: true, is_active: true });
    const [t1, t2] = [randomUUID().replaceAll('-', ''), randomUUID().replaceAll('-', '')];
    expect((await call('POST', `/simple/queues/${tq.id}/traces`, a, { trace_ids: [t1, t2] })).body).toEqual({ count: 1, queue_id: tq.id });
    const scen = (await call('POST', `/simple/queues/${tq.id}/scenarios/query`, a, {})).body.scenarios;
    expect(scen.map((s: { status: string }) => s.status)).toEqual(['pending', 'pending']);
    const cells = (await call('POST', '/evaluations/results/query', a, { result: { run_id: tq.run_id } })).body.results as Array<{ step_key: string; status: string; trace_id?: string }>;
    expect(cells.filter((c) => c.step_key === 'traces').map((c) => c.trace_id?.replaceAll('-', '')).sort()).toEqual([t1, t2].sort());
    expect(cells.filter((c) => c.step_key === `evaluator-${evRev.slug}`).map((c) => c.status)).toEqual(['pending', 'pending']);
    expect((await call('POST', `/simple/queues/${tq.id}/testcases`, a, { testcase_ids: [randomUUID()] })).body).toEqual({ count: 0 });

    // A direct testcases queue with lanes: a queue of its own, repeats = lanes.
    const [u1, u2] = [randomUUID(), randomUUID()];
    const lanes = (await call('POST', '/simple/queues/', a, { queue: { name: 'Lanes', data: { kind: 'testcases', evaluators: [evRev.id], assignments: [[u1], [u2]] } } })).body.queue;
    expect(lanes).toMatchObject({ flags: { is_default: false, is_sequential: false }, data: { kind: 'testcases', assignments: [[u1], [u2]], repeats: 2 } });
    const testcaseIds = (await call('POST', '/testsets/revisions/retrieve', a, { testset_revision_ref: { id: tsRev.id } })).body.testset_revision.data.testcases.map((c: { id: string }) => c.id);
    expect((await call('POST', `/simple/queues/${lanes.id}/testcases`, a, { testcase_ids: [...testcaseIds, randomUUID()] })).body).toEqual({ count: 1, queue_id: lanes.id });
    expect((await call('POST', `/simple/queues/${lanes.id}/scenarios/query`, a, { queue: { user_id: u1 } })).body.count).toBe(3);

    // A testset-backed queue: scenarios for its testcases at once; traces cannot be added to it.
    const backed = (await call('POST', '/simple/queues/', a, { queue: { data: { testsets: [tsRev.id], evaluators: [evRev.id] } } })).body.queue;
    expect(backed.data).toMatchObject({ kind: 'testsets', testsets: [tsRev.id] });
    const deadline = Date.now() + 30_000;
    let filled = 0;
    while (Date.now() < deadline && filled < 3) {
      filled = (await call('POST', `/simple/queues/${backed.id}/scenarios/query`, a, {})).body.count;
      if (filled < 3) await new Promise((r) => setTimeout(r, 250));
    }
    expect(filled).toBe(3);
    const denied = await call('POST', `/simple/queues/${backed.id}/traces`, a, { trace_ids: [t1] });
    expect(denied).toMatchObject({ status: 400, body: { detail: { message: 'Cannot add traces directly to a source-backed queue. Create a direct traces queue instead.' } } });

    // Queries by kind; a plain run's queue is not a simple queue; deleting a default simple queue deletes its run.
    const kinds = (await call('POST', '/simple/queues/query', a, { queue: { kind: 'traces' } })).body.queues.map((q: { id: string }) => q.id);
    expect(kinds).toContain(tq.id);
    expect(kinds).not.toContain(lanes.id);
    const plain = await newRun(a, [input, auto]);
    const plainQueue = (await call('POST', '/evaluations/queues/', a, { queues: [{ run_id: plain.id, name: 'not simple' }] })).body.queues[0];
    expect((await call('GET', `/simple/queues/${plainQueue.id}`, a)).body).toEqual({ count: 0 });
    expect((await call('GET', `/simple/queues/${tq.id}`, b)).body).toEqual({ count: 0 });
    expect((await call('DELETE', `/simple/queues/${tq.id}`, a)).body).toEqual({ count: 1, queue_id: tq.id });
    expect((await call('GET', `/evaluations/runs/${tq.run_id}`, a)).body).toEqual({ count: 0 });
    expect((await call('DELETE', '/simple/queues/', a, { queue_ids: [lanes.id] })).body).toEqual({ count: 1, queue_ids: [lanes.id] });
    expect((await call('GET', `/evaluations/runs/${lanes.run_id}`, a)).body.count).toBe(1);
  }, 120_000);
});
