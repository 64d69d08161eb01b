// Reads of simple queues (reference evaluations §2.8): queues whose run is a queue run with exactly
// one source family (their kind); any other queue is not a simple queue (`{count: 0}`, not listed).
// Scenarios as for evaluation queues (evaluation-queue-routes.ts).
import { queryQueues, readQueue, readRuns, simpleQueueKind, simpleQueueView, type QueueRow, type Windowing } from '@llm/evaluation-model';
import { invalid } from '@llm/errors';
import { queueScenariosQuery, simpleQueuesQuery } from '@llm/contracts';
import { uuidParam, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { queueScenarios } from './evaluation-queue-routes.ts';
import { defined } from './evaluation-run-routes.ts';

type Json = Record<string, unknown>;

export function simpleQueueRoutes(deps: { pool: Pool }, guards: Guards<'view'>): Handlers {
  const { pool } = deps;
  /** The simple views of these queues (those that are simple queues), in order. */
  const views = async (projectId: string, queues: QueueRow[]): Promise<Json[]> => {
    const runs = new Map((await readRuns(pool, projectId, [...new Set(queues.map((q) => q.run_id))])).map((r) => [r.id, r]));
    return queues.map((q) => { const r = runs.get(q.run_id); return r ? simpleQueueView(q, r) : undefined; }).filter((v): v is Json => v !== undefined);
  };
  const simple = async (projectId: string, id: string): Promise<QueueRow | undefined> => {
    const q = await readQueue(pool, projectId, id);
    if (!q) return undefined;
    const [run] = await readRuns(pool, projectId, [q.run_id]);
    return run && simpleQueueKind(run.flags) ? q : undefined;
  };
  return {
    'simple.queues.fetch': [...guards.view, async (req, res) => {
      const q = await simple(req.scope.projectId, uuidParam(req.params, 'queue_id'));
      const [view] = q ? await views(req.scope.projectId, [q]) : [];
      res.json(view ? { count: 1, queue: view } : { count: 0 });
    }],
    'simple.queues.query': [...guards.view, async (req, res) => {
      const body = validate(simpleQueuesQuery, req.body ?? {});
      const f = body?.queue ?? {};
      const { kind: _kind, queue_ids, ...filter } = defined(f);
      const rows = await queryQueues(pool, req.scope.projectId, { ...filter, ...(queue_ids ? { ids: queue_ids } : {}) }, body?.windowing ? defined(body.windowing) as Windowing : undefined);
      const out = (await views(req.scope.projectId, rows)).filter((v) => !f.kind || (v.data as Json).kind === f.kind);
      res.json({ count: out.length, queues: out });
    }],
    'simple.queues.scenarios': [...guards.view, async (req, res) => {
      const id = uuidParam(req.params, 'queue_id');
      const body = validate(queueScenariosQuery, req.body ?? {});
      if (body?.queue?.id && body.queue.id.toLowerCase() !== id.toLowerCase()) throw invalid('queue_id_mismatch', 'queue_id in path must match queue.id in request body');
      const q = await simple(req.scope.projectId, id);
      res.json(q ? await queueScenarios(pool, q, body) : { count: 0, scenarios: [] });
    }],
  };
}
