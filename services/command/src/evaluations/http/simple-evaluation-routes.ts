// The simple-evaluation view of a run (reference evaluations §2.4): its lifecycle (start, stop,
// close, open, delete) and its slice routes (remove scenarios, prune cells, refresh metrics, add or
// remove steps, set repeats), all as run events on evaluations.v1 (`scenarios/add` and `populate`
// are in cell-routes.ts). Creating a simple evaluation builds the run's graph from revisions of the
// artifact model, which is not built yet (docs/design/evaluations.md); neither is server-side
// execution, so `start` activates the run and dispatches nothing.
import type { Request, RequestHandler } from 'express';
import { queryScenarios, readRun, readSlice, readScenarios, runView, simpleEvaluationView, type RunRow } from '@llm/evaluation-model';
import { repeatsSet, runSlice, scenarioIds, stepsAdd, stepsRemove } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { uuidParam, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { EvaluationCommands } from '../adapters/evaluation-commands.ts';
import type { MetricsRefresh } from '../adapters/metrics-refresh.ts';
import { editedRun, type RunFields } from '../domain/payloads.ts';
import { pruneSteps } from '../adapters/step-pruning.ts';

export interface SimpleEvaluationRouteDeps {
  pool: Pool;
  evaluations: EvaluationCommands;
  refresh: MetricsRefresh;
}

type Lifecycle = { is_closed?: boolean; is_active?: boolean; status?: string };

export function simpleEvaluationRoutes(deps: SimpleEvaluationRouteDeps, guards: Guards<'edit'>): Handlers {
  const { pool, evaluations, refresh } = deps;
  const run = (req: Request): Promise<RunRow | undefined> => readRun(pool, req.scope.projectId, uuidParam(req.params, 'evaluation_id'));

  const lifecycle = (set: Lifecycle): RequestHandler[] => [...guards.edit, async (req, res) => {
    const r = await run(req);
    if (!r) { res.json({ count: 0 }); return; }
    await evaluations.run(req, {
      type: 'evaluations.run.lifecycle_set', runId: r.id,
      payload: { run_id: r.id, is_closed: set.is_closed === undefined ? '' : String(set.is_closed), is_active: set.is_active === undefined ? '' : String(set.is_active), status: set.status ?? '' },
    });
    const after = await readRun(pool, req.scope.projectId, r.id);
    res.json(after ? { count: 1, evaluation: simpleEvaluationView(after) } : { count: 0 });
  }];

  /** The run's steps edited (added or removed keys, repeats), then the run as answered. */
  const editSteps = async (req: Request, r: RunRow, data: NonNullable<RunFields['data']>): Promise<RunRow | undefined> => {
    await evaluations.run(req, { type: 'evaluations.run.edited', runId: r.id, payload: { run: editedRun(r, { data }) } });
    return readRun(pool, req.scope.projectId, r.id);
  };
  const stepsOf = (r: RunRow): Array<Record<string, unknown> & { key: string }> =>
    (Array.isArray(r.data?.steps) ? r.data.steps : []) as Array<Record<string, unknown> & { key: string }>;

  /** Variational rows of the slice's scenarios, then the run's global row. */
  const refreshSlice = async (req: Request, r: RunRow, scenarioIdsOf: string[] | null | undefined): Promise<void> => {
    const ids = scenarioIdsOf ?? (await queryScenarios(pool, req.scope.projectId, { run_id: r.id }, undefined)).map((s) => s.id);
    for (const id of ids) await refresh.refresh(req, r.id, id);
    await refresh.refresh(req, r.id, undefined);
  };

  return {
    'simple.evaluations.start': lifecycle({ is_active: true, status: 'running' }),
    'simple.evaluations.stop': lifecycle({ is_active: false }),
    'simple.evaluations.close': lifecycle({ is_closed: true }),
    'simple.evaluations.open': lifecycle({ is_closed: false }),
    'simple.evaluations.delete': [...guards.edit, async (req, res) => {
      const r = await run(req);
      if (!r) { res.json({ count: 0 }); return; }
      await evaluations.run(req, { type: 'evaluations.run.deleted', runId: r.id, payload: { run_id: r.id } });
      res.json({ count: 1, evaluation_id: r.id });
    }],
    'simple.evaluations.scenarios.remove': [...guards.edit, async (req, res) => {
      const r = await run(req);
      const ids = validate(scenarioIds, req.body).scenario_ids;
      const found = r ? await readScenarios(pool, req.scope.projectId, ids) : [];
      if (!r || found.length !== new Set(ids).size || found.some((s) => s.run_id !== r.id)) {
        throw invalid('evaluation_run_mismatch', `All scenario_ids must belong to the evaluation in the path (${uuidParam(req.params, 'evaluation_id')}).`);
      }
      if (found.length > 0) await evaluations.run(req, { type: 'evaluations.scenarios.deleted', runId: r.id, payload: { run_id: r.id, scenario_ids: found.map((s) => s.id) } });
      res.status(204).end();
    }],
    'simple.evaluations.prune': [...guards.edit, async (req, res) => {
      const r = await run(req);
      if (!r) { res.status(204).end(); return; }
      const slice = validate(runSlice, req.body ?? {});
      const cells = await readSlice(pool, req.scope.projectId, r.id, slice);
      if (cells.length > 0) await evaluations.run(req, { type: 'evaluations.results.deleted', runId: r.id, payload: { run_id: r.id, result_ids: cells.map((c) => c.id) } });
      await refreshSlice(req, r, slice.scenario_ids);
      res.status(204).end();
    }],
    'simple.evaluations.refresh': [...guards.edit, async (req, res) => {
      const r = await run(req);
      if (r) await refreshSlice(req, r, validate(runSlice, req.body ?? {}).scenario_ids);
      res.status(204).end();
    }],
    'simple.evaluations.steps.add': [...guards.edit, async (req, res) => {
      const r = await run(req);
      if (!r) { res.json({ count: 0 }); return; }
      const existing = stepsOf(r);
      const keys = new Set(existing.map((s) => s.key));
      const added = validate(stepsAdd, req.body).steps.filter((s) => !keys.has(s.key));
      const after = await editSteps(req, r, { ...(r.data ?? {}), steps: [...existing, ...added] as never });
      res.json(after ? { count: 1, run: runView(after) } : { count: 0 });
    }],
    'simple.evaluations.steps.remove': [...guards.edit, async (req, res) => {
      const r = await run(req);
      if (!r) { res.json({ count: 0 }); return; }
      const gone = new Set(validate(stepsRemove, req.body).step_keys);
      await editSteps(req, r, { ...(r.data ?? {}), steps: stepsOf(r).filter((s) => !gone.has(s.key)) as never });
      // A removed step's cells go with it, and the scenarios left without cells (as a run edit prunes).
      await pruneSteps(pool, evaluations, req, r, stepsOf(r).map((s) => s.key).filter((k) => gone.has(k)));
      const after = await readRun(pool, req.scope.projectId, r.id);
      res.json(after ? { count: 1, run: runView(after) } : { count: 0 });
    }],
    'simple.evaluations.repeats.set': [...guards.edit, async (req, res) => {
      const r = await run(req);
      if (!r) { res.json({ count: 0 }); return; }
      const after = await editSteps(req, r, { ...(r.data ?? {}), repeats: validate(repeatsSet, req.body).repeats });
      res.json(after ? { count: 1, run: runView(after) } : { count: 0 });
    }],
  };
}
