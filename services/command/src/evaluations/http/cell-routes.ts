// Scenarios, results (cells) and metrics of evaluation runs (reference evaluations §2.3), and the
// simple-evaluation slice routes the SDK writes through (`scenarios/add`, `populate`, §2.4). Items
// are grouped by run: each run's part is one event on its own stream, appended and awaited, so it is
// atomic (a closed run refuses its whole part with 409). Unknown or foreign runs and ids are skipped
// (`{count: 0}` when nothing is left), as the reference answers.
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import {
  readCells, readMetricKeys, readMetrics, readResults, readRun, readScenarios, metricView, resultView, scenarioView,
} from '@llm/evaluation-model';
import {
  metricIds, metricsWrite, resultIds, resultsWrite, scenarioEditOne, scenarioIds, scenariosCreate, scenariosEdit, storedDateTime, int,
  type ResultWrite,
} from '@llm/contracts';
import { AppError, invalid } from '@llm/errors';
import { uuidv7 } from '@llm/events';
import { uuidParam, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { EvaluationCommands } from '../adapters/evaluation-commands.ts';
import { byRun, editedScenario, metricInfo, newScenario, resultInfo, type ScenarioFields } from '../domain/payloads.ts';

export interface CellRouteDeps {
  pool: Pool;
  evaluations: EvaluationCommands;
}

const scenariosAdd = z.object({ count: int({ min: -1_000_000, max: 10_000, label: 'count' }), timestamp: storedDateTime.nullish() });
const populate = resultsWrite;

/** `timestamp` floored to the minute (scenarios/add's temporal scenarios, §2.4). */
const toMinute = (iso: string): string => new Date(Math.floor(Date.parse(iso) / 60_000) * 60_000).toISOString();

export function cellRoutes(deps: CellRouteDeps, guards: Guards<'edit'>): Handlers {
  const { pool, evaluations } = deps;
  const runExists = async (req: Request, runId: string): Promise<boolean> => (await readRun(pool, req.scope.projectId, runId)) !== undefined;

  async function addScenarios(req: Request, runId: string, items: readonly ScenarioFields[], status?: string): Promise<string[]> {
    if (items.length === 0 || !await runExists(req, runId)) return [];
    const ids = items.map(() => uuidv7());
    await evaluations.run(req, { type: 'evaluations.scenarios.added', runId, payload: { run_id: runId, scenarios: items.map((s, i) => newScenario(ids[i]!, s, status)) } });
    return ids;
  }

  async function editScenarios(req: Request, items: ReadonlyArray<ScenarioFields & { id: string }>): Promise<string[]> {
    const stored = new Map((await readScenarios(pool, req.scope.projectId, items.map((s) => s.id))).map((s) => [s.id, s]));
    const found = items.filter((s) => stored.has(s.id)).map((s) => ({ ...s, run_id: stored.get(s.id)!.run_id }));
    for (const [runId, list] of byRun(found)) {
      await evaluations.run(req, { type: 'evaluations.scenarios.edited', runId, payload: { run_id: runId, scenarios: list.map((s) => editedScenario(stored.get(s.id)!, s)) } });
    }
    return [...new Set(found.map((s) => s.id))];
  }

  async function deleteScenarios(req: Request, ids: readonly string[]): Promise<string[]> {
    const found = await readScenarios(pool, req.scope.projectId, ids);
    for (const [runId, list] of byRun(found)) {
      await evaluations.run(req, { type: 'evaluations.scenarios.deleted', runId, payload: { run_id: runId, scenario_ids: list.map((s) => s.id) } });
    }
    return found.map((s) => s.id);
  }

  /** Cells upserted by (scenario, step, repeat); the answer is the cells as stored, in request order. */
  async function writeResults(req: Request, items: readonly ResultWrite[]): Promise<Array<Record<string, unknown>>> {
    const out: Array<Record<string, unknown>> = [];
    for (const [runId, list] of byRun(items)) {
      if (!await runExists(req, runId)) continue;
      await evaluations.run(req, { type: 'evaluations.results.upserted', runId, payload: { run_id: runId, results: list.map((r) => resultInfo(uuidv7(), r)) } });
      const keys = list.map((r) => ({ scenario_id: r.scenario_id, step_key: r.step_key, repeat_idx: r.repeat_idx ?? 0 }));
      const cells = new Map((await readCells(pool, runId, keys)).map((c) => [`${c.scenario_id}|${c.step_key}|${c.repeat_idx}`, c]));
      const seen = new Set<string>();
      for (const k of keys) {
        const key = `${k.scenario_id}|${k.step_key}|${k.repeat_idx}`;
        const cell = cells.get(key);
        if (cell && !seen.has(key)) { seen.add(key); out.push(resultView(cell)); }
      }
    }
    return out;
  }

  async function deleteResults(req: Request, ids: readonly string[]): Promise<string[]> {
    const found = await readResults(pool, req.scope.projectId, ids);
    for (const [runId, list] of byRun(found)) {
      await evaluations.run(req, { type: 'evaluations.results.deleted', runId, payload: { run_id: runId, result_ids: list.map((r) => r.id) } });
    }
    return found.map((r) => r.id);
  }

  const resultsHandler: RequestHandler[] = [...guards.edit, async (req, res) => {
    const rows = await writeResults(req, validate(resultsWrite, req.body).results);
    res.json({ count: rows.length, results: rows });
  }];

  const metricsHandler: RequestHandler[] = [...guards.edit, async (req, res) => {
    const items = validate(metricsWrite, req.body).metrics;
    // A metric is global, variational (a scenario) or temporal (a timestamp), never both (§2.3).
    if (items.some((m) => m.scenario_id && m.timestamp)) {
      throw new AppError({ code: 'evaluation_metric_shape', kind: 'unprocessable', message: 'Metric does not match a valid global/variational/temporal shape.', nested: true });
    }
    const out: Array<Record<string, unknown>> = [];
    for (const [runId, list] of byRun(items)) {
      if (!await runExists(req, runId)) continue;
      await evaluations.run(req, { type: 'evaluations.metrics.upserted', runId, payload: { run_id: runId, metrics: list.map((m) => metricInfo(uuidv7(), m)) } });
      const keys = list.map((m) => ({ scenario_id: m.scenario_id ?? '', timestamp: m.timestamp ?? '' }));
      out.push(...(await readMetricKeys(pool, runId, keys)).map(metricView));
    }
    res.json({ count: out.length, metrics: out });
  }];

  return {
    'evaluations.scenarios.create': [...guards.edit, async (req, res) => {
      const ids: string[] = [];
      for (const [runId, list] of byRun(validate(scenariosCreate, req.body).scenarios)) ids.push(...await addScenarios(req, runId, list));
      const rows = await readScenarios(pool, req.scope.projectId, ids);
      res.json({ count: rows.length, scenarios: rows.map(scenarioView) });
    }],
    'evaluations.scenarios.edit': [...guards.edit, async (req, res) => {
      const ids = await editScenarios(req, validate(scenariosEdit, req.body).scenarios);
      const rows = await readScenarios(pool, req.scope.projectId, ids);
      res.json({ count: rows.length, scenarios: rows.map(scenarioView) });
    }],
    'evaluations.scenarios.edit_one': [...guards.edit, async (req, res) => {
      const id = uuidParam(req.params, 'scenario_id');
      const { scenario } = validate(scenarioEditOne, req.body);
      if (scenario.id !== id) { res.json({ count: 0 }); return; }
      const [row] = await readScenarios(pool, req.scope.projectId, await editScenarios(req, [scenario]));
      res.json(row ? { count: 1, scenario: scenarioView(row) } : { count: 0 });
    }],
    'evaluations.scenarios.delete': [...guards.edit, async (req, res) => {
      const ids = await deleteScenarios(req, validate(scenarioIds, req.body).scenario_ids);
      res.json({ count: ids.length, scenario_ids: ids });
    }],
    'evaluations.scenarios.delete_one': [...guards.edit, async (req, res) => {
      const ids = await deleteScenarios(req, [uuidParam(req.params, 'scenario_id')]);
      res.json(ids.length ? { count: 1, scenario_id: ids[0] } : { count: 0 });
    }],
    'evaluations.results.create': resultsHandler,
    'evaluations.results.set': resultsHandler,
    'evaluations.results.edit': resultsHandler,
    'evaluations.results.delete': [...guards.edit, async (req, res) => {
      const ids = await deleteResults(req, validate(resultIds, req.body).result_ids);
      res.json({ count: ids.length, result_ids: ids });
    }],
    'evaluations.results.delete_one': [...guards.edit, async (req, res) => {
      const ids = await deleteResults(req, [uuidParam(req.params, 'result_id')]);
      res.json(ids.length ? { count: 1, result_id: ids[0] } : { count: 0 });
    }],
    'evaluations.metrics.create': metricsHandler,
    'evaluations.metrics.set': metricsHandler,
    'evaluations.metrics.edit': metricsHandler,
    'evaluations.metrics.delete': [...guards.edit, async (req, res) => {
      const ids = validate(metricIds, req.body).metrics_ids;
      const found = await readMetrics(pool, req.scope.projectId, ids);
      for (const [runId, list] of byRun(found)) {
        await evaluations.run(req, { type: 'evaluations.metrics.deleted', runId, payload: { run_id: runId, metric_ids: list.map((m) => m.id) } });
      }
      res.json({ count: found.length, metrics_ids: found.map((m) => m.id) });
    }],
    'evaluations.metrics.delete_one': [...guards.edit, async (req, res) => {
      const id = uuidParam(req.params, 'metric_id');
      const found = await readMetrics(pool, req.scope.projectId, [id]);
      for (const m of found) await evaluations.run(req, { type: 'evaluations.metrics.deleted', runId: m.run_id, payload: { run_id: m.run_id, metric_ids: [m.id] } });
      res.json({ count: found.length, metrics_ids: found.map((m) => m.id) });
    }],
    // The SDK's slice routes (§2.4): N running scenarios in order; cells of the run in the path.
    'simple.evaluations.scenarios.add': [...guards.edit, async (req, res) => {
      const runId = uuidParam(req.params, 'evaluation_id');
      const body = validate(scenariosAdd, req.body);
      const time = body.timestamp ? { timestamp: toMinute(body.timestamp), interval: 1 } : {};
      const ids = body.count > 0 ? await addScenarios(req, runId, Array.from({ length: body.count }, () => time), 'running') : [];
      const rows = await readScenarios(pool, req.scope.projectId, ids);
      res.json({ count: rows.length, scenarios: rows.map(scenarioView) });
    }],
    'simple.evaluations.populate': [...guards.edit, async (req, res) => {
      const runId = uuidParam(req.params, 'evaluation_id');
      const { results } = validate(populate, req.body);
      if (results.some((r) => r.run_id !== runId)) throw invalid('evaluation_run_mismatch', `All results must target the evaluation in the path (${runId}).`);
      const rows = await writeResults(req, results);
      res.json({ count: rows.length, results: rows });
    }],
  };
}
