// The real Agenta Python SDK's evaluation flow against this backend, unchanged (reference evaluations
// §0.1, §4.1): `ag.testsets.acreate` then `aevaluate(testsets, applications, evaluators)` with a local
// application and a local exact-match evaluator. The SDK executes both in its own process, exports
// their spans over OTLP and writes the run, its scenarios, cells and metrics through our API; the
// outcome is then read back through our API. The SDK runs from the pinned venv `npm test` installs
// once (deploy/local/agenta-sdk.mjs); the script is test/e2e/agenta-sdk/evaluate_flow.py.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// @ts-expect-error plain .mjs module without types
const { ensureAgentaSdk } = await import('../../deploy/local/agenta-sdk.mjs');

const run = promisify(execFile);
const script = path.join(import.meta.dirname, 'agenta-sdk', 'evaluate_flow.py');

/** One metric summary as refresh computes it (reference evaluations §3.4). */
interface MetricSummary { type: string; count: number; mean?: number; min?: number; max?: number }
interface MetricsRow { id: string; run_id: string; scenario_id?: string | null; status?: string; data?: Record<string, Record<string, MetricSummary>> }
interface SdkOutput {
  run_id: string;
  status: string;
  scenarios: number;
  scenario_ids: string[];
  scenario_statuses: string[];
  step_keys: string[];
  testset_id: string;
  testset_revision_id: string;
  global_metrics: MetricsRow | null;
  variational_metrics: MetricsRow[];
}
interface RunStep { key: string; type: string; origin: string }
interface Run { id: string; status: string; flags: Record<string, boolean>; data?: { steps?: RunStep[] } }
interface Scenario { id: string; run_id: string; status: string }
interface Result { scenario_id: string; step_key: string; repeat_idx?: number; status: string; trace_id?: string | null; testcase_id?: string | null }
interface Testcase { id: string; data: Record<string, unknown> }

const ROWS = [
  { country: 'France', correct_answer: 'Paris' },
  { country: 'Germany', correct_answer: 'Berlin' },
  { country: 'Spain', correct_answer: 'Barcelona' },
];
// The application answers Madrid for Spain: the one wrong answer.
const EXPECTED_SCORE: Record<string, number> = { France: 1, Germany: 1, Spain: 0 };
const SCORE = 'attributes.ag.data.outputs.score';
const SUCCESS = 'attributes.ag.data.outputs.success';

describe('the Agenta Python SDK evaluation flow', () => {
  let app: TestApp;
  let acc: TestAccount;
  let python: string;

  beforeAll(async () => {
    // Normally already installed by the test command; idempotent here for direct vitest runs.
    python = ensureAgentaSdk({ log: () => {} }) as string;
    app = await startTestApp();
    acc = await createAccount(app.baseUrl, app.adminToken);
  }, 300_000);
  afterAll(async () => { await app?.stop(); });

  async function call<T>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${app.baseUrl}${route}`, {
      method,
      headers: { ...acc.auth, 'Content-Type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  it('given a testset with one wrong expectation, when the SDK evaluates a local application with a local evaluator over it, then the run closes as success with one scored scenario per testcase and a mean score of 2/3', async () => {
    const { stdout } = await run(python, [script, app.baseUrl, acc.apiKey], {
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, AGENTA_LOG_LEVEL: 'error', AGENTA_LOG_CONSOLE_LEVEL: 'ERROR', LITELLM_LOCAL_MODEL_COST_MAP: 'True' },
    });
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as SdkOutput;
    // Every scenario ran both steps without error: the SDK closes the run with `success`.
    expect(out).toMatchObject({ status: 'success', scenarios: 3 });
    expect(out.scenario_statuses).toEqual(['success', 'success', 'success']);
    // The SDK keys its cells `<kind>-<revision slug>`, one step per kind.
    expect(out.step_keys).toHaveLength(3);
    const testsetKey = out.step_keys.find((k) => k.startsWith('testset-'))!;
    const applicationKey = out.step_keys.find((k) => k.startsWith('application-'))!;
    const evaluatorKey = out.step_keys.find((k) => k.startsWith('evaluator-'))!;
    expect([testsetKey, applicationKey, evaluatorKey].every(Boolean)).toBe(true);

    // The testset reads back as the SDK created it: three testcases, each row given a dedup id.
    const testset = await call<{ count: number; testset_revision?: { id: string; testset_id: string; data: { testcases: Testcase[] } } }>(
      'POST', '/testsets/revisions/retrieve', { testset_ref: { id: out.testset_id } });
    expect(testset.status).toBe(200);
    expect(testset.body.count).toBe(1);
    const revision = testset.body.testset_revision!;
    expect(revision).toMatchObject({ id: out.testset_revision_id, testset_id: out.testset_id });
    const testcases = revision.data.testcases;
    expect(testcases).toHaveLength(3);
    for (const [i, tc] of testcases.entries()) {
      const { testcase_dedup_id: dedup, ...row } = tc.data;
      expect(typeof dedup).toBe('string');
      expect(row).toEqual(ROWS[i]);
    }
    const countryOf = new Map(testcases.map((tc) => [tc.id, tc.data.country as string]));

    // The run: closed with the status the SDK rolled up, its steps keyed as the SDK wrote its cells.
    const stored = await call<{ count: number; run?: Run }>('GET', `/evaluations/runs/${out.run_id}`);
    expect(stored.status).toBe(200);
    expect(stored.body.count).toBe(1);
    const runRow = stored.body.run!;
    expect(runRow.status).toBe('success');
    expect(runRow.flags.is_closed).toBe(true);
    const steps = runRow.data?.steps ?? [];
    expect(steps.map((s) => s.key).sort()).toEqual([...out.step_keys].sort());
    expect(steps.find((s) => s.key === testsetKey)?.type).toBe('input');
    expect(steps.find((s) => s.key === applicationKey)?.type).toBe('invocation');
    expect(steps.find((s) => s.key === evaluatorKey)?.type).toBe('annotation');

    // One scenario per testcase, each closed as success by the SDK's PATCH.
    const scenarios = await call<{ count: number; scenarios: Scenario[] }>('POST', '/evaluations/scenarios/query', { scenario: { run_id: out.run_id } });
    expect(scenarios.status).toBe(200);
    expect(scenarios.body.count).toBe(3);
    expect(scenarios.body.scenarios.map((s) => s.id).sort()).toEqual([...out.scenario_ids].sort());
    for (const s of scenarios.body.scenarios) expect(s).toMatchObject({ run_id: out.run_id, status: 'success' });

    // Three cells per scenario: the testcase, the application's trace, the evaluator's trace.
    const results = await call<{ count: number; results: Result[] }>('POST', '/evaluations/results/query', { result: { run_id: out.run_id } });
    expect(results.status).toBe(200);
    expect(results.body.count).toBe(9);
    const testcaseOf = new Map<string, string>();
    for (const scenarioId of out.scenario_ids) {
      const cells = results.body.results.filter((r) => r.scenario_id === scenarioId);
      expect(cells.map((c) => c.step_key).sort()).toEqual([...out.step_keys].sort());
      for (const c of cells) expect(c.status).toBe('success');
      const input = cells.find((c) => c.step_key === testsetKey)!;
      expect(countryOf.has(input.testcase_id!)).toBe(true);
      testcaseOf.set(scenarioId, input.testcase_id!);
      for (const key of [applicationKey, evaluatorKey]) expect(cells.find((c) => c.step_key === key)?.trace_id).toBeTruthy();
    }
    // Each testcase has its own scenario.
    expect(new Set(testcaseOf.values()).size).toBe(3);

    // Global metrics, read the way the SDK reads them: the evaluator's score over the three
    // scenarios, under the evaluator step's key.
    const global = await call<{ count: number; metrics: MetricsRow[] }>('POST', '/evaluations/metrics/query', { metrics: { run_id: out.run_id, scenario_ids: false, timestamps: false } });
    expect(global.status).toBe(200);
    expect(global.body.count).toBe(1);
    const globalRow = global.body.metrics[0]!;
    expect(globalRow.scenario_id ?? null).toBeNull();
    const score = globalRow.data?.[evaluatorKey]?.[SCORE];
    expect(score).toMatchObject({ type: 'numeric/continuous', count: 3, min: 0, max: 1 });
    expect(score!.mean).toBeCloseTo(2 / 3, 10);
    expect(globalRow.data?.[evaluatorKey]?.[SUCCESS]).toMatchObject({ type: 'binary' });
    // The input step has no traces; the application step is summarised too.
    expect(globalRow.data?.[testsetKey]).toBeUndefined();
    expect(globalRow.data?.[applicationKey]).toBeDefined();
    // The SDK read the same row back after closing the run.
    expect(out.global_metrics).toMatchObject({ id: globalRow.id, run_id: out.run_id });
    expect(out.global_metrics!.data).toEqual(globalRow.data);

    // Per-scenario metrics: one row per scenario, scored by the testcase it ran.
    const variational = await call<{ count: number; metrics: MetricsRow[] }>('POST', '/evaluations/metrics/query', { metrics: { run_id: out.run_id, scenario_ids: true, timestamps: false } });
    expect(variational.status).toBe(200);
    expect(variational.body.count).toBe(3);
    expect(variational.body.metrics.map((m) => m.scenario_id).sort()).toEqual([...out.scenario_ids].sort());
    for (const m of variational.body.metrics) {
      const country = countryOf.get(testcaseOf.get(m.scenario_id!)!)!;
      expect(m.data?.[evaluatorKey]?.[SCORE]).toMatchObject({ type: 'numeric/continuous', count: 1, mean: EXPECTED_SCORE[country] });
    }
    expect(out.variational_metrics.map((m) => m.scenario_id).sort()).toEqual([...out.scenario_ids].sort());
  }, 300_000);
});
