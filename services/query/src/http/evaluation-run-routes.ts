// Reads of evaluation runs, scenarios, results and metrics (reference evaluations §2.3) from the
// evaluation read model (projector-evaluations). Scoped to the caller's project: another project's
// ids answer `{count: 0}`. Runs and metrics come newest first, scenarios and results in creation
// order; `windowing` pages when sent.
import {
  metricView, queryMetrics, queryResults, queryRuns, queryScenarios, readMetrics, readResults, readRun, readScenarios, resultView, runView, scenarioView,
  readSlice, simpleEvaluationView, type Windowing,
} from '@llm/evaluation-model';
import { metricsQuery, resultsQuery, runSlice, runsQuery, scenariosQuery, simpleEvaluationsQuery } from '@llm/contracts';
import { uuidParam, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';


/** zod's nullish fields as the readers' optional ones (shared by the evaluation reads). */
export function defined<T extends Record<string, unknown>>(o: T | null | undefined): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: Exclude<T[K], null> };
}

export function evaluationRunRoutes(deps: { pool: Pool }, guards: Guards<'view'>): Handlers {
  const { pool } = deps;
  const window = (w: Record<string, unknown> | null | undefined): Windowing | undefined => (w ? defined(w) as Windowing : undefined);
  return {
    'evaluations.runs.fetch': [...guards.view, async (req, res) => {
      const row = await readRun(pool, req.scope.projectId, uuidParam(req.params, 'run_id'));
      res.json(row ? { count: 1, run: runView(row) } : { count: 0 });
    }],
    'evaluations.runs.query': [...guards.view, async (req, res) => {
      const body = validate(runsQuery, req.body ?? {});
      const w = window(body.windowing);
      const rows = await queryRuns(pool, req.scope.projectId, defined(body.run), w);
      const full = w?.limit !== undefined && rows.length >= w.limit;
      res.json({ count: rows.length, runs: rows.map(runView), ...(full ? { windowing: { ...body.windowing, next: rows[rows.length - 1]!.id } } : {}) });
    }],
    'evaluations.scenarios.fetch': [...guards.view, async (req, res) => {
      const [row] = await readScenarios(pool, req.scope.projectId, [uuidParam(req.params, 'scenario_id')]);
      res.json(row ? { count: 1, scenario: scenarioView(row) } : { count: 0 });
    }],
    'evaluations.scenarios.query': [...guards.view, async (req, res) => {
      const body = validate(scenariosQuery, req.body ?? {});
      const rows = await queryScenarios(pool, req.scope.projectId, defined(body.scenario), window(body.windowing));
      res.json({ count: rows.length, scenarios: rows.map(scenarioView) });
    }],
    'evaluations.results.fetch': [...guards.view, async (req, res) => {
      const [row] = await readResults(pool, req.scope.projectId, [uuidParam(req.params, 'result_id')]);
      res.json(row ? { count: 1, result: resultView(row) } : { count: 0 });
    }],
    'evaluations.results.query': [...guards.view, async (req, res) => {
      const body = validate(resultsQuery, req.body ?? {});
      const rows = await queryResults(pool, req.scope.projectId, defined(body.result), window(body.windowing));
      res.json({ count: rows.length, results: rows.map(resultView) });
    }],
    // The reference answers one metric row in a list envelope.
    'evaluations.metrics.fetch': [...guards.view, async (req, res) => {
      const rows = await readMetrics(pool, req.scope.projectId, [uuidParam(req.params, 'metric_id')]);
      res.json({ count: rows.length, metrics: rows.map(metricView) });
    }],
    // Simple evaluations (§2.4): runs seen through their step references.
    'simple.evaluations.fetch': [...guards.view, async (req, res) => {
      const row = await readRun(pool, req.scope.projectId, uuidParam(req.params, 'evaluation_id'));
      res.json(row ? { count: 1, evaluation: simpleEvaluationView(row) } : { count: 0 });
    }],
    // The reference ignores ids, name and windowing here (a [quirk]); they are honoured.
    'simple.evaluations.query': [...guards.view, async (req, res) => {
      const body = validate(simpleEvaluationsQuery, req.body ?? {});
      const rows = await queryRuns(pool, req.scope.projectId, defined(body.evaluation), window(body.windowing));
      res.json({ count: rows.length, evaluations: rows.map(simpleEvaluationView) });
    }],
    // The cells of a slice: omitted = all, `[]` = none.
    'simple.evaluations.probe': [...guards.view, async (req, res) => {
      const runId = uuidParam(req.params, 'evaluation_id');
      const rows = await readSlice(pool, req.scope.projectId, runId, validate(runSlice, req.body ?? {}));
      res.json({ count: rows.length, results: rows.map(resultView) });
    }],
    'evaluations.metrics.query': [...guards.view, async (req, res) => {
      const body = validate(metricsQuery, req.body ?? {});
      const rows = await queryMetrics(pool, req.scope.projectId, defined(body.metrics), window(body.windowing));
      res.json({ count: rows.length, metrics: rows.map(metricView) });
    }],
  };
}
