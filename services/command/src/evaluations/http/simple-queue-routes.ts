// Simple queues (reference evaluations §2.8, §3.5): a queue with the run built for it. Direct kinds
// (`traces`, `testcases`) get a run with one reference-less input step and one annotation step per
// evaluator; source-backed kinds (`queries`, `testsets`) the run graph of simple evaluations
// (run/graph.ts) with evaluators `human` by default. The run is created `running` and active
// (reserving `evaluations_run`), its default queue reconciled; the simple queue is that default
// queue, or — with assignments, step keys or batch settings — a queue of its own. Source-backed
// queues are dispatched at once (the worker adds one scenario per testcase or per trace the saved
// query selects, with `pending` cells for people); traces and testcases are added to direct queues by their routes. Deleting a simple queue
// that is its run's default deletes the run.
import type { Request } from 'express';
import {
  buildRunGraph, normaliseSteps, readDefaultQueue, readQueues, readRun, readRuns, simpleQueueKind, simpleQueueView, type Origin, type QueueRow,
} from '@llm/evaluation-model';
import { readProjectTestcases } from '@llm/account-model';
import { queueIds, simpleQueueCreate, simpleQueueTestcases, simpleQueueTraces } from '@llm/contracts';
import { AppError } from '@llm/errors';
import { uuidv7, type EvaluationResultInfo } from '@llm/events';
import { RequestValidationError, uuidParam, validate, type Guards, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { QuotaGate } from '../../quota/adapters/quota-gate.ts';
import type { EvaluationCommands } from '../adapters/evaluation-commands.ts';
import { artifactRevisionSource, queryRevisionSource, revisionsOf } from '../adapters/graph-sources.ts';
import { reconcileDefaultQueue } from '../adapters/default-queue.ts';
import { newRun, newScenario, resultInfo } from '../domain/payloads.ts';

export interface SimpleQueueRouteDeps {
  pool: Pool;
  evaluations: EvaluationCommands;
  quota: Pick<QuotaGate, 'evaluation'>;
}

type Body = ReturnType<typeof simpleQueueCreate.parse>['queue']['data'];

/** §2.8's 422s on the source of a simple queue; the kind it is. */
function kindOf(d: Body): 'queries' | 'testsets' | 'traces' | 'testcases' {
  const fail = (msg: string): never => { throw new RequestValidationError([{ loc: ['body', 'queue', 'data'], msg, type: 'value_error' }]); };
  const queries = (d.queries ?? []).length > 0;
  const testsets = (d.testsets ?? []).length > 0;
  if (queries && testsets) return fail('simple queue source must be either queries or testsets');
  if (!d.kind && !queries && !testsets) return fail('simple queue requires kind, queries, or testsets');
  if ((queries || testsets) && (d.kind === 'traces' || d.kind === 'testcases')) return fail('simple queue source must not include kind alongside queries or testsets');
  if (queries && d.kind && d.kind !== 'queries') return fail("query-backed queues must use kind='queries'");
  if (testsets && d.kind && d.kind !== 'testsets') return fail("testset-backed queues must use kind='testsets'");
  if (d.kind === 'queries' && !queries) return fail("kind='queries' requires query sources");
  if (d.kind === 'testsets' && !testsets) return fail("kind='testsets' requires testset sources");
  return queries ? 'queries' : testsets ? 'testsets' : d.kind!;
}

/** The reference's 400 `{"detail": {"message": …}}` for items added to a source-backed queue. */
const sourceBacked = (items: 'traces' | 'testcases'): AppError => new AppError({
  code: 'queue_source_backed', kind: 'invalid', nested: true,
  message: `Cannot add ${items} directly to a source-backed queue. Create a direct ${items} queue instead.`,
});

/** Evaluators as revision id → origin: a list means human ones (§3.5: the default origin of simple queues). */
function evaluatorsOf(d: Body): Record<string, Origin> {
  const e = d.evaluators;
  if (!e) return {};
  return Array.isArray(e) ? Object.fromEntries(e.map((id): [string, Origin] => [id, 'human'])) : normaliseSteps(e);
}

export function simpleQueueRoutes(deps: SimpleQueueRouteDeps, guards: Guards<'edit'>): Handlers {
  const { pool, evaluations, quota } = deps;

  /** The simple queue in the caller's project (a queue of a queue run), with its run. */
  const simple = async (req: Request, id: string) => {
    const [q] = await readQueues(pool, req.scope.projectId, [id]);
    const run = q ? await readRun(pool, req.scope.projectId, q.run_id) : undefined;
    return q && run && simpleQueueKind(run.flags) ? { queue: q, run, kind: simpleQueueKind(run.flags)! } : undefined;
  };

  const answer = async (req: Request, q: QueueRow): Promise<Record<string, unknown>> => {
    const [run] = await readRuns(pool, req.scope.projectId, [q.run_id]);
    const view = run ? simpleQueueView(q, run) : undefined;
    return view ? { count: 1, queue: view } : { count: 0 };
  };

  /** Scenarios for items added to a direct queue: an input cell naming each item, `pending` cells for the people. */
  const addItems = async (req: Request, run: NonNullable<Awaited<ReturnType<typeof simple>>>['run'], items: Array<{ trace_id?: string; testcase_id?: string }>): Promise<void> => {
    const steps = (Array.isArray(run.data?.steps) ? run.data.steps : []) as Array<{ key: string; type: string; origin: string }>;
    const input = steps.find((s) => s.type === 'input');
    const people = steps.filter((s) => s.type === 'annotation' && s.origin !== 'auto');
    const repeats = typeof run.data?.repeats === 'number' ? run.data.repeats : 1;
    for (let i = 0; i < items.length; i += 500) {
      const batch = items.slice(i, i + 500).map((item) => ({ item, scenario: newScenario(uuidv7(), { status: people.length ? 'pending' : 'success' }) }));
      await evaluations.run(req, { type: 'evaluations.scenarios.added', runId: run.id, payload: { run_id: run.id, scenarios: batch.map((b) => b.scenario) } });
      const cells: EvaluationResultInfo[] = batch.flatMap(({ item, scenario }) => Array.from({ length: repeats }, (_, r) => [
        ...(input ? [resultInfo(uuidv7(), { scenario_id: scenario.scenario_id, step_key: input.key, repeat_idx: r, status: 'success', trace_id: item.trace_id ?? null, testcase_id: item.testcase_id ?? null })] : []),
        ...people.map((s) => resultInfo(uuidv7(), { scenario_id: scenario.scenario_id, step_key: s.key, repeat_idx: r, status: 'pending', testcase_id: item.testcase_id ?? null })),
      ]).flat());
      if (cells.length) await evaluations.run(req, { type: 'evaluations.results.upserted', runId: run.id, payload: { run_id: run.id, results: cells } });
    }
  };

  const remove = async (req: Request, ids: readonly string[]): Promise<string[]> => {
    const done: string[] = [];
    for (const id of ids) {
      const s = await simple(req, id);
      if (!s) continue;
      if (s.queue.flags.is_default === true) await evaluations.run(req, { type: 'evaluations.run.deleted', runId: s.run.id, payload: { run_id: s.run.id } });
      else await evaluations.run(req, { type: 'evaluations.queues.deleted', runId: s.run.id, payload: { run_id: s.run.id, queue_ids: [s.queue.id] } });
      done.push(s.queue.id);
    }
    return done;
  };

  return {
    'simple.queues.create': [...guards.edit, async (req, res) => {
      const { queue: body } = validate(simpleQueueCreate, req.body);
      const d = body.data;
      const kind = kindOf(d);
      const evaluatorSteps = evaluatorsOf(d);
      if (Object.keys(evaluatorSteps).length === 0) { res.json({ count: 0 }); return; }
      if (!Object.values(evaluatorSteps).includes('human')) {
        throw new RequestValidationError([{ loc: ['body', 'queue', 'data', 'evaluators'], msg: 'simple queues must have at least one human evaluator', type: 'value_error' }]);
      }
      const projectId = req.scope.projectId;
      const list = (ids: string[] | null | undefined): Record<string, Origin> => Object.fromEntries((ids ?? []).map((id): [string, Origin] => [id, 'custom']));
      const evaluators = await revisionsOf(evaluatorSteps, (id, origin) => artifactRevisionSource(pool, projectId, 'evaluator', id, origin));
      const queries = await revisionsOf(list(d.queries), (id, origin) => queryRevisionSource(pool, projectId, id, origin));
      const testsets = await revisionsOf(list(d.testsets), (id, origin) => artifactRevisionSource(pool, projectId, 'testset', id, origin));
      if (!evaluators || !queries || !testsets) { res.json({ count: 0 }); return; }
      const direct = kind === 'traces' || kind === 'testcases' ? kind : undefined;
      const graph = buildRunGraph({ queries, testsets, applications: [], evaluators, live: false, direct });
      if (!graph.ok) { res.json({ count: 0 }); return; }
      const lanes = d.assignments?.length ?? 0;
      const repeats = Math.max(d.repeats ?? 1, lanes, 1);
      const runId = uuidv7();
      await quota.evaluation(req.scope.organizationId, () => evaluations.run(req, {
        type: 'evaluations.run.created', runId,
        payload: { run: newRun(runId, { name: body.name, description: body.description, status: 'running', tags: body.tags, meta: body.meta, data: { steps: graph.steps, mappings: graph.mappings, repeats } as never }) },
      }));
      await evaluations.run(req, { type: 'evaluations.run.lifecycle_set', runId, payload: { run_id: runId, is_closed: '', is_active: 'true', status: '' } });
      await reconcileDefaultQueue(pool, evaluations, req, runId);
      let queue = await readDefaultQueue(pool, projectId, runId, true);
      const own = (d.assignments?.length ?? 0) > 0 || (d.step_keys?.length ?? 0) > 0 || d.settings?.batch_size != null || d.settings?.batch_offset != null;
      if (own) {
        const id = uuidv7();
        const data = Object.fromEntries(Object.entries({ user_ids: d.assignments, step_keys: d.step_keys, batch_size: d.settings?.batch_size, batch_offset: d.settings?.batch_offset }).filter(([, v]) => v !== undefined && v !== null));
        await evaluations.run(req, {
          type: 'evaluations.queues.created', runId,
          payload: { run_id: runId, queues: [{
            queue_id: id, name: body.name ?? '', description: body.description ?? '', status: body.status ?? 'running',
            flags_json: JSON.stringify({ is_default: false, is_sequential: d.settings?.batch_size != null || d.settings?.batch_offset != null }),
            tags_json: body.tags ? JSON.stringify(body.tags) : '', meta_json: body.meta ? JSON.stringify(body.meta) : '', data_json: JSON.stringify(data),
          }] },
        });
        [queue] = await readQueues(pool, projectId, [id]);
      }
      // Source-backed queues get their scenarios at once (the worker: one per testcase or selected trace, cells pending for people).
      if (kind === 'testsets' || kind === 'queries') {
        await evaluations.run(req, { type: 'evaluations.run.dispatched', runId, payload: { run_id: runId, dispatch_id: uuidv7(), slice_json: '{}', overwrite: false } });
      }
      res.json(queue ? await answer(req, queue) : { count: 0 });
    }],
    'simple.queues.delete': [...guards.edit, async (req, res) => {
      const ids = await remove(req, validate(queueIds, req.body).queue_ids);
      res.json({ count: ids.length, queue_ids: ids });
    }],
    'simple.queues.delete_one': [...guards.edit, async (req, res) => {
      const ids = await remove(req, [uuidParam(req.params, 'queue_id')]);
      res.json(ids.length ? { count: 1, queue_id: ids[0] } : { count: 0 });
    }],
    'simple.queues.traces.add': [...guards.edit, async (req, res) => {
      const { trace_ids } = validate(simpleQueueTraces, req.body);
      const s = await simple(req, uuidParam(req.params, 'queue_id'));
      if (s && (s.kind === 'queries' || s.kind === 'testsets')) throw sourceBacked('traces');
      if (!s || s.kind !== 'traces') { res.json({ count: 0 }); return; }
      await addItems(req, s.run, [...new Set(trace_ids)].map((trace_id) => ({ trace_id })));
      res.json({ count: 1, queue_id: s.queue.id });
    }],
    'simple.queues.testcases.add': [...guards.edit, async (req, res) => {
      const { testcase_ids } = validate(simpleQueueTestcases, req.body);
      const s = await simple(req, uuidParam(req.params, 'queue_id'));
      if (s && (s.kind === 'queries' || s.kind === 'testsets')) throw sourceBacked('testcases');
      if (!s || s.kind !== 'testcases') { res.json({ count: 0 }); return; }
      // Testcases of the project only (another project's ids are unknown here).
      const found = await readProjectTestcases(pool, req.scope.projectId, testcase_ids);
      await addItems(req, s.run, found.map((t) => ({ testcase_id: t.id })));
      res.json({ count: 1, queue_id: s.queue.id });
    }],
  };
}
