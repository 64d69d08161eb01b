// Queues of evaluation runs (reference evaluations §2.8): create, edit, delete — one event per run on
// the run's stream (evaluations.queues.*), decided by the run rules (queue/rules.ts): a second
// default queue is 409, a default queue with filters 422, demoting or deleting a default 409, a
// closed run refuses creates and edits (409) but not deletes. Another project's queue or run is
// unknown: skipped in bulk, `{count: 0}` alone.
import type { Request } from 'express';
import { readQueues, readRun, queueView, type QueueRow } from '@llm/evaluation-model';
import { queueEditOne, queueIds, queuesCreate, queuesEdit } from '@llm/contracts';
import { uuidv7, type EvaluationQueueInfo } from '@llm/events';
import { uuidParam, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { z } from 'zod';
import type { EvaluationCommands } from '../adapters/evaluation-commands.ts';
import { byRun } from '../domain/payloads.ts';

export interface QueueRouteDeps {
  pool: Pool;
  evaluations: EvaluationCommands;
}

type Json = Record<string, unknown>;
type QueueFields = z.infer<typeof queuesEdit>['queues'][number];
const json = (v: unknown): string => (v === undefined || v === null ? '' : JSON.stringify(v));
const withoutNulls = (o: Json | null | undefined): Json | undefined => {
  if (!o) return undefined;
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
  return Object.keys(out).length ? out : undefined;
};

/** A queue as written: the sent fields over the stored ones (absent or null keeps the stored value). */
function queueInfo(id: string, sent: Omit<QueueFields, 'id'>, stored?: QueueRow): EvaluationQueueInfo {
  const keep = <T>(v: T | null | undefined, old: T): T => (v === undefined || v === null ? old : v);
  const flags = { is_default: false, is_sequential: false, ...(stored?.flags ?? {}), ...withoutNulls(sent.flags as Json | null | undefined) };
  return {
    queue_id: id,
    name: keep(sent.name, stored?.name ?? '') ?? '',
    description: keep(sent.description, stored?.description ?? '') ?? '',
    status: keep(sent.status, stored?.status ?? 'pending'),
    flags_json: JSON.stringify({ is_default: flags.is_default === true, is_sequential: flags.is_sequential === true }),
    tags_json: json(keep(sent.tags, stored?.tags ?? null)),
    meta_json: json(keep(sent.meta, stored?.meta ?? null)),
    data_json: json(sent.data !== undefined && sent.data !== null ? withoutNulls(sent.data as Json) : stored?.data),
  };
}

export function queueRoutes(deps: QueueRouteDeps, guards: Guards<'edit'>): Handlers {
  const { pool, evaluations } = deps;

  const edit = async (req: Request, sent: readonly QueueFields[]): Promise<QueueRow[]> => {
    const stored = new Map((await readQueues(pool, req.scope.projectId, sent.map((q) => q.id))).map((q) => [q.id, q]));
    const known = sent.filter((q) => stored.has(q.id));
    for (const [runId, queues] of byRun(known.map((q) => ({ run_id: stored.get(q.id)!.run_id, q })))) {
      await evaluations.run(req, { type: 'evaluations.queues.edited', runId, payload: { run_id: runId, queues: queues.map(({ q }) => queueInfo(q.id, q, stored.get(q.id))) } });
    }
    return readQueues(pool, req.scope.projectId, known.map((q) => q.id));
  };

  const remove = async (req: Request, ids: readonly string[]): Promise<string[]> => {
    const found = await readQueues(pool, req.scope.projectId, ids);
    for (const [runId, queues] of byRun(found)) {
      await evaluations.run(req, { type: 'evaluations.queues.deleted', runId, payload: { run_id: runId, queue_ids: queues.map((q) => q.id) } });
    }
    return found.map((q) => q.id);
  };

  return {
    'evaluations.queues.create': [...guards.edit, async (req, res) => {
      const body = validate(queuesCreate, req.body);
      const ids: string[] = [];
      for (const [runId, queues] of byRun(body.queues)) {
        if (!(await readRun(pool, req.scope.projectId, runId))) continue;
        const infos = queues.map((q) => queueInfo(q.id ?? uuidv7(), q));
        await evaluations.run(req, { type: 'evaluations.queues.created', runId, payload: { run_id: runId, queues: infos } });
        ids.push(...infos.map((i) => i.queue_id));
      }
      const rows = await readQueues(pool, req.scope.projectId, ids);
      res.json({ count: rows.length, queues: rows.map(queueView) });
    }],
    'evaluations.queues.edit': [...guards.edit, async (req, res) => {
      const rows = await edit(req, validate(queuesEdit, req.body).queues);
      res.json({ count: rows.length, queues: rows.map(queueView) });
    }],
    'evaluations.queues.edit_one': [...guards.edit, async (req, res) => {
      const id = uuidParam(req.params, 'queue_id');
      const { queue } = validate(queueEditOne, req.body);
      if (queue.id.toLowerCase() !== id.toLowerCase()) { res.json({ count: 0 }); return; }
      const [row] = await edit(req, [queue]);
      res.json(row ? { count: 1, queue: queueView(row) } : { count: 0 });
    }],
    'evaluations.queues.delete': [...guards.edit, async (req, res) => {
      const ids = await remove(req, validate(queueIds, req.body).queue_ids);
      res.json({ count: ids.length, queue_ids: ids });
    }],
    'evaluations.queues.delete_one': [...guards.edit, async (req, res) => {
      const ids = await remove(req, [uuidParam(req.params, 'queue_id')]);
      res.json(ids.length ? { count: 1, queue_id: ids[0] } : { count: 0 });
    }],
  };
}
