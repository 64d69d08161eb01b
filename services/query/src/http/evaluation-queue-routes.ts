// Reads of evaluation queues (reference evaluations §2.8, §3.5) from the evaluation read model:
// queries (archived hidden unless asked), one queue (archived included), a run's active default
// queue, and a queue's scenarios — the run's, restricted to the queue's, for one user's lanes when a
// `user_id` is sent (packages/evaluation-model queue/assignment.ts), position-paged. Scoped to the
// caller's project: another project's ids answer `{count: 0}`.
import { invalid } from '@llm/errors';
import {
  queryQueues, queryScenarios, queueScenarioIds, queueView, readDefaultQueue, readQueue, scenarioView, type QueueAssignment, type QueueRow, type Windowing,
} from '@llm/evaluation-model';
import { queueScenariosQuery, queuesQuery } from '@llm/contracts';
import { uuidParam, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { z } from 'zod';
import { defined } from './evaluation-run-routes.ts';

type ScenariosQuery = z.infer<typeof queueScenariosQuery>;

/** §3.5: the run's scenarios the queue shows, for one user's lanes when asked, by status, position-paged. */
export async function queueScenarios(pool: Pool, queue: QueueRow, body: ScenariosQuery): Promise<{ count: number; scenarios: unknown[] }> {
  const scenarios = await queryScenarios(pool, queue.project_id, { run_id: queue.run_id }, { order: 'ascending' });
  const d = (queue.data ?? {}) as QueueAssignment;
  const ids = queueScenarioIds(scenarios.map((s) => s.id), { ...d, is_sequential: queue.flags.is_sequential === true }, body?.queue?.user_id ?? undefined);
  const statuses: string[] = [...(body?.scenario?.status ? [body.scenario.status] : []), ...(body?.scenario?.statuses ?? [])];
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  let rows = ids.map((i) => byId.get(i)!).filter((s) => statuses.length === 0 || statuses.includes(s.status));
  const next = body?.windowing?.next?.toLowerCase();
  if (next) { const at = rows.findIndex((s) => s.id === next); rows = at >= 0 ? rows.slice(at + 1) : []; }
  const limit = body?.windowing?.limit;
  if (typeof limit === 'number' && limit >= 1) rows = rows.slice(0, limit);
  return { count: rows.length, scenarios: rows.map(scenarioView) };
}

export function evaluationQueueRoutes(deps: { pool: Pool }, guards: Guards<'view'>): Handlers {
  const { pool } = deps;
  return {
    'evaluations.queues.fetch': [...guards.view, async (req, res) => {
      const row = await readQueue(pool, req.scope.projectId, uuidParam(req.params, 'queue_id'));
      res.json(row ? { count: 1, queue: queueView(row) } : { count: 0 });
    }],
    'evaluations.queues.query': [...guards.view, async (req, res) => {
      const body = validate(queuesQuery, req.body ?? {});
      const w = body?.windowing ? defined(body.windowing) as Windowing : undefined;
      const rows = await queryQueues(pool, req.scope.projectId, defined(body?.queue), w);
      res.json({ count: rows.length, queues: rows.map(queueView) });
    }],
    'evaluations.runs.default_queue': [...guards.view, async (req, res) => {
      const row = await readDefaultQueue(pool, req.scope.projectId, uuidParam(req.params, 'run_id'), true);
      res.json(row ? { count: 1, queue: queueView(row) } : { count: 0 });
    }],
    'evaluations.queues.scenarios': [...guards.view, async (req, res) => {
      const id = uuidParam(req.params, 'queue_id');
      const body = validate(queueScenariosQuery, req.body ?? {});
      if (body?.queue?.id && body.queue.id.toLowerCase() !== id.toLowerCase()) throw invalid('queue_id_mismatch', 'queue_id in path must match queue.id in request body');
      const queue = await readQueue(pool, req.scope.projectId, id);
      res.json(queue ? await queueScenarios(pool, queue, body) : { count: 0, scenarios: [] });
    }],
  };
}
