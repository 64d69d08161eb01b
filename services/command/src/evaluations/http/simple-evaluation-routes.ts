// The simple-evaluation view of a run (reference evaluations §2.4): its lifecycle (start, stop,
// close, open, delete) and its slice routes (remove scenarios, prune cells, refresh metrics, add or
// remove steps, set repeats), all as run events on evaluations.v1 (`scenarios/add` and `populate`
// are in cell-routes.ts). Creating one builds the run's graph (§3.2) from revisions of testsets,
// applications, evaluators and saved queries, then creates and starts the run. Starting a run that
// was not already running dispatches it (`evaluations.run.dispatched`): the command side's
// evaluation worker executes it (evaluations/worker/). A run the SDK drives is created `running`, so
// nothing is dispatched: the SDK runs the cells itself (§4.1). `…/process` dispatches a slice.
import type { Request, RequestHandler } from 'express';
import {
  RUN_CLOSED_MESSAGE, buildRunGraph, evaluationRejectionError, normaliseSteps, queryScenarios, readRun, readSlice, readScenarios, runView, simpleEvaluationView,
  type DispatchSlice, type GraphRevision, type Origin, type RunRow,
} from '@llm/evaluation-model';
import { repeatsSet, runProcess, runSlice, scenarioIds, simpleEvaluationCreate, simpleEvaluationEdit, stepsAdd, stepsRemove, type SimpleEvaluationCreate } from '@llm/contracts';
import { uuidv7 } from '@llm/events';
import { invalid } from '@llm/errors';
import { uuidParam, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { EvaluationCommands } from '../adapters/evaluation-commands.ts';
import type { MetricsRefresh } from '../adapters/metrics-refresh.ts';
import { editedRun, editedScenario, newRun, type RunFields } from '../domain/payloads.ts';
import { artifactRevisionSource, queryRevisionSource, revisionsOf } from '../adapters/graph-sources.ts';
import type { QuotaGate } from '../../quota/adapters/quota-gate.ts';
import { pruneSteps } from '../adapters/step-pruning.ts';
import { reconcileDefaultQueue } from '../adapters/default-queue.ts';

export interface SimpleEvaluationRouteDeps {
  pool: Pool;
  evaluations: EvaluationCommands;
  refresh: MetricsRefresh;
  /** The organization's `evaluations_run` quota: one run per created simple evaluation. */
  quota: Pick<QuotaGate, 'evaluation'>;
}

/** The caller's flags a simple evaluation keeps (§2.4); the others follow from steps and lifecycle. */
const KEPT_FLAGS = ['is_live', 'is_cached', 'is_split', 'is_queue'] as const;

type Lifecycle = { is_closed?: boolean; is_active?: boolean; status?: string };

export function simpleEvaluationRoutes(deps: SimpleEvaluationRouteDeps, guards: Guards<'edit'>): Handlers {
  const { pool, evaluations, refresh, quota } = deps;
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

  /** Queues the server-side execution of a slice of the run (the worker claims it from evaluation_dispatches). */
  const dispatch = (req: Request, runId: string, slice: DispatchSlice = {}, overwrite = false): Promise<void> => evaluations.run(req, {
    type: 'evaluations.run.dispatched', runId, payload: { run_id: runId, dispatch_id: uuidv7(), slice_json: JSON.stringify(slice), overwrite },
  });
  /** Whether starting a run executes it (§2.4): not when it was running already (the SDK drives it), closed, or live (the cron's). */
  const dispatchable = (r: Pick<RunRow, 'status' | 'flags'>): boolean => r.status !== 'running' && r.flags.is_closed !== true && r.flags.is_live !== true;

  /** The run's steps edited (added or removed keys, repeats), then the run as answered. */
  const editSteps = async (req: Request, r: RunRow, data: NonNullable<RunFields['data']>): Promise<RunRow | undefined> => {
    await evaluations.run(req, { type: 'evaluations.run.edited', runId: r.id, payload: { run: editedRun(r, { data }) } });
    await reconcileDefaultQueue(pool, evaluations, req, r.id);
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

  /** The run's steps and mappings from the revisions the steps name; undefined when one is unknown or cannot be a step (§2.4). */
  const graphOf = async (req: Request, d: NonNullable<SimpleEvaluationCreate['evaluation']['data']>, live: boolean) => {
    const projectId = req.scope.projectId;
    const artifact = (entity: 'testset' | 'application' | 'evaluator') => (id: string, origin: Origin) => artifactRevisionSource(pool, projectId, entity, id, origin);
    const queries = await revisionsOf(normaliseSteps(d.query_steps), (id, origin) => queryRevisionSource(pool, projectId, id, origin));
    const testsets = await revisionsOf(normaliseSteps(d.testset_steps), artifact('testset'));
    const applications = await revisionsOf(normaliseSteps(d.application_steps), artifact('application'));
    const evaluators = await revisionsOf(normaliseSteps(d.evaluator_steps), artifact('evaluator'));
    if (!queries || !testsets || !applications || !evaluators) return undefined;
    const graph = buildRunGraph({ queries, testsets, applications, evaluators, live });
    return graph.ok ? graph : undefined;
  };

  const create: RequestHandler = async (req, res) => {
    const { evaluation: body } = validate(simpleEvaluationCreate, req.body);
    const projectId = req.scope.projectId;
    const flags = Object.fromEntries(KEPT_FLAGS.map((k) => [k, body.flags?.[k] === true]));
    const d = body.data;
    const graph = await graphOf(req, d, flags.is_live === true);
    if (!graph) { res.json({ count: 0 }); return; }
    const id = uuidv7();
    const data = { steps: graph.steps, mappings: graph.mappings, ...(d.repeats != null ? { repeats: d.repeats } : {}) };
    await quota.evaluation(req.scope.organizationId, () => evaluations.run(req, {
      type: 'evaluations.run.created', runId: id,
      payload: { run: newRun(id, { name: body.name, description: body.description, status: d.status ?? 'pending', flags, tags: body.tags, meta: body.meta, data }) },
    }));
    // Started (§2.4): active and running; a run created `running` is the SDK's (it runs the cells
    // itself) and a live one the cron's; any other is dispatched.
    await reconcileDefaultQueue(pool, evaluations, req, id);
    const execute = dispatchable({ status: d.status ?? 'pending', flags });
    await evaluations.run(req, { type: 'evaluations.run.lifecycle_set', runId: id, payload: { run_id: id, is_closed: '', is_active: 'true', status: 'running' } });
    if (execute) await dispatch(req, id);
    const after = await readRun(pool, projectId, id);
    res.json(after ? { count: 1, evaluation: simpleEvaluationView(after) } : { count: 0 });
  };

  // PATCH (§2.4): the steps rebuilt from the revisions named, the run's repeats and flags kept; the
  // cells of steps that are gone are pruned (with the scenarios left without cells). No run is
  // executed here, so there is nothing to stop and restart around the edit.
  const edit: RequestHandler = async (req, res) => {
    const { evaluation: body } = validate(simpleEvaluationEdit, req.body);
    const r = await run(req);
    if (!r || r.id !== body.id || !body.data || r.flags.is_closed === true) { res.json({ count: 0 }); return; }
    const graph = await graphOf(req, body.data, r.flags.is_live === true);
    if (!graph) { res.json({ count: 0 }); return; }
    const before = stepsOf(r).map((s) => s.key);
    const data = { ...(r.data ?? {}), steps: graph.steps, mappings: graph.mappings } as NonNullable<RunFields['data']>;
    await evaluations.run(req, { type: 'evaluations.run.edited', runId: r.id, payload: { run: editedRun(r, { name: body.name, description: body.description, tags: body.tags, meta: body.meta, data }) } });
    const kept = new Set(graph.steps.map((s) => s.key));
    await pruneSteps(pool, evaluations, req, r, before.filter((k) => !kept.has(k)));
    await reconcileDefaultQueue(pool, evaluations, req, r.id);
    const after = await readRun(pool, req.scope.projectId, r.id);
    res.json(after ? { count: 1, evaluation: simpleEvaluationView(after) } : { count: 0 });
  };

  return {
    'simple.evaluations.create': [...guards.edit, create],
    'simple.evaluations.edit': [...guards.edit, edit],
    'simple.evaluations.start': [...guards.edit, async (req, res) => {
      const r = await run(req);
      if (!r) { res.json({ count: 0 }); return; }
      await evaluations.run(req, { type: 'evaluations.run.lifecycle_set', runId: r.id, payload: { run_id: r.id, is_closed: '', is_active: 'true', status: 'running' } });
      if (dispatchable(r)) await dispatch(req, r.id);
      const after = await readRun(pool, req.scope.projectId, r.id);
      res.json(after ? { count: 1, evaluation: simpleEvaluationView(after) } : { count: 0 });
    }],
    // §2.4 process: the run and the addressed scenarios marked running, then the slice dispatched (202).
    'simple.evaluations.process': [...guards.edit, async (req, res) => {
      const r = await run(req);
      const { overwrite, ...slice } = validate(runProcess, req.body ?? {});
      if (!r) { res.status(202).end(); return; }
      if (r.flags.is_closed === true) throw evaluationRejectionError({ status: 'rejected', code: 'evaluation_run_closed', message: RUN_CLOSED_MESSAGE, details: { run_id: r.id } });
      await evaluations.run(req, { type: 'evaluations.run.lifecycle_set', runId: r.id, payload: { run_id: r.id, is_closed: '', is_active: 'true', status: 'running' } });
      const all = await queryScenarios(pool, req.scope.projectId, { run_id: r.id }, undefined);
      const wanted = slice.scenario_ids ? new Set(slice.scenario_ids.map((x) => x.toLowerCase())) : undefined;
      const addressed = all.filter((x) => !wanted || wanted.has(x.id));
      for (let i = 0; i < addressed.length; i += 500) {
        await evaluations.run(req, { type: 'evaluations.scenarios.edited', runId: r.id, payload: { run_id: r.id, scenarios: addressed.slice(i, i + 500).map((x) => editedScenario(x, { status: 'running' })) } });
      }
      const sliceOf: DispatchSlice = {
        ...(slice.scenario_ids ? { scenario_ids: slice.scenario_ids } : {}), ...(slice.step_keys ? { step_keys: slice.step_keys } : {}), ...(slice.repeat_idxs ? { repeat_idxs: slice.repeat_idxs } : {}),
      };
      await dispatch(req, r.id, sliceOf, overwrite === true);
      res.status(202).end();
    }],
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
