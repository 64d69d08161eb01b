// Evaluation runs (reference evaluations §2.3): create, edit, delete, open and close — one event per
// run on evaluations.v1, appended and awaited (read-your-writes). A run is created only within the
// organization's `evaluations_run` quota (reserved before the append, given back when the run is
// refused or never appended). Another project's run is unknown here: its id answers `{count: 0}`.
// After a create or edit the run's default queue is reconciled (adapters/default-queue.ts).
import type { RequestHandler } from 'express';
import { readRun, readRuns, runView, type RunRow } from '@llm/evaluation-model';
import { closeQuery, runEditOne, runIds, runsCreate, runsEdit } from '@llm/contracts';
import { uuidv7 } from '@llm/events';
import { uuidParam, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { QuotaGate } from '../../quota/adapters/quota-gate.ts';
import type { EvaluationCommands } from '../adapters/evaluation-commands.ts';
import { editedRun, newRun, type RunFields } from '../domain/payloads.ts';
import { pruneSteps, removedSteps } from '../adapters/step-pruning.ts';
import { reconcileDefaultQueue } from '../adapters/default-queue.ts';

export interface RunRouteDeps {
  pool: Pool;
  evaluations: EvaluationCommands;
  quota: Pick<QuotaGate, 'evaluation'>;
}


export function runRoutes(deps: RunRouteDeps, guards: Guards<'edit'>): Handlers {
  const { pool, evaluations, quota } = deps;

  const edit = async (req: Parameters<RequestHandler>[0], id: string, fields: RunFields): Promise<RunRow | undefined> => {
    const stored = await readRun(pool, req.scope.projectId, id);
    if (!stored) return undefined;
    await evaluations.run(req, { type: 'evaluations.run.edited', runId: id, payload: { run: editedRun(stored, fields) } });
    // Removed steps take their cells with them, and the scenarios left without cells.
    await pruneSteps(pool, evaluations, req, stored, removedSteps(stored.data, fields.data));
    await reconcileDefaultQueue(pool, evaluations, req, id);
    return readRun(pool, req.scope.projectId, id);
  };

  /** Opens or closes runs of the caller's project (close may set the status); unknown ids are skipped. */
  const setClosed = async (req: Parameters<RequestHandler>[0], ids: readonly string[], closed: boolean, status?: string): Promise<RunRow[]> => {
    const found = await readRuns(pool, req.scope.projectId, ids);
    for (const r of found) {
      await evaluations.run(req, { type: 'evaluations.run.lifecycle_set', runId: r.id, payload: { run_id: r.id, is_closed: String(closed), is_active: '', status: status ?? '' } });
    }
    return readRuns(pool, req.scope.projectId, found.map((r) => r.id));
  };

  const remove = async (req: Parameters<RequestHandler>[0], ids: readonly string[]): Promise<string[]> => {
    const found = await readRuns(pool, req.scope.projectId, ids);
    for (const r of found) await evaluations.run(req, { type: 'evaluations.run.deleted', runId: r.id, payload: { run_id: r.id } });
    return found.map((r) => r.id);
  };

  return {
    'evaluations.runs.create': [...guards.edit, async (req, res) => {
      const body = validate(runsCreate, req.body);
      const created: RunRow[] = [];
      for (const r of body.runs) {
        const id = r.id ?? uuidv7();
        await quota.evaluation(req.scope.organizationId, () => evaluations.run(req, { type: 'evaluations.run.created', runId: id, payload: { run: newRun(id, r) } }));
        await reconcileDefaultQueue(pool, evaluations, req, id);
        const row = await readRun(pool, req.scope.projectId, id);
        if (row) created.push(row);
      }
      res.json({ count: created.length, runs: created.map(runView) });
    }],
    'evaluations.runs.edit': [...guards.edit, async (req, res) => {
      const body = validate(runsEdit, req.body);
      const edited: RunRow[] = [];
      for (const r of body.runs) {
        const row = await edit(req, r.id, r);
        if (row) edited.push(row);
      }
      res.json({ count: edited.length, runs: edited.map(runView) });
    }],
    'evaluations.runs.edit_one': [...guards.edit, async (req, res) => {
      const id = uuidParam(req.params, 'run_id');
      const { run } = validate(runEditOne, req.body);
      if (run.id !== id) { res.json({ count: 0 }); return; }
      const row = await edit(req, id, run);
      res.json(row ? { count: 1, run: runView(row) } : { count: 0 });
    }],
    'evaluations.runs.delete': [...guards.edit, async (req, res) => {
      const ids = await remove(req, validate(runIds, req.body).run_ids);
      res.json({ count: ids.length, run_ids: ids });
    }],
    'evaluations.runs.delete_one': [...guards.edit, async (req, res) => {
      const ids = await remove(req, [uuidParam(req.params, 'run_id')]);
      res.json(ids.length ? { count: 1, run_id: ids[0] } : { count: 0 });
    }],
    'evaluations.runs.close': [...guards.edit, async (req, res) => {
      const rows = await setClosed(req, validate(runIds, req.body).run_ids, true);
      res.json({ count: rows.length, runs: rows.map(runView) });
    }],
    'evaluations.runs.open': [...guards.edit, async (req, res) => {
      const rows = await setClosed(req, validate(runIds, req.body).run_ids, false);
      res.json({ count: rows.length, runs: rows.map(runView) });
    }],
    'evaluations.runs.close_one': [...guards.edit, async (req, res) => {
      const id = uuidParam(req.params, 'run_id');
      const { status } = validate(closeQuery, req.query);
      const rows = await setClosed(req, [id], true, status);
      res.json(rows[0] ? { count: 1, run: runView(rows[0]) } : { count: 0 });
    }],
    'evaluations.runs.open_one': [...guards.edit, async (req, res) => {
      const rows = await setClosed(req, [uuidParam(req.params, 'run_id')], false);
      res.json(rows[0] ? { count: 1, run: runView(rows[0]) } : { count: 0 });
    }],
  };
}
