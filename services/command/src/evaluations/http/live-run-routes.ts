// The live-run cron (reference evaluations §4.2): `POST /admin/evaluations/runs/refresh`, called by an
// operator's scheduler with the admin token. For every open, active, running live run of any project,
// one tick over [trigger − interval, trigger) (minute-floored) is dispatched to the evaluation worker
// (run-executor.ts: the traces its saved queries select in the window become scenarios stamped with
// the tick, their temporal metrics refreshed). A run whose query steps lack data or a top-level
// `trace_type is "invocation"` condition is closed instead. The tick's dispatch id is derived from
// the run and the window, so a retried cron call schedules nothing twice.
import { createHash } from 'node:crypto';
import { liveRunsRefreshQuery } from '@llm/contracts';
import { isInvocationQuery, readLiveRuns, type RunRow } from '@llm/evaluation-model';
import { validate, type Guards, type Handlers } from '@llm/http';
import type { Logger } from 'pino';
import type { Pool } from '@llm/postgres';
import { projectActor } from '../../actor.ts';
import type { EvaluationCommands } from '../adapters/evaluation-commands.ts';
import { queryRevisionSource } from '../adapters/graph-sources.ts';

export interface LiveRunRouteDeps {
  pool: Pool;
  evaluations: EvaluationCommands;
  log: Logger;
}

/** A UUID (version 8 layout) named by the run and its tick: the same tick is the same dispatch. */
function tickId(runId: string, oldest: string, interval: number): string {
  const h = createHash('sha256').update(`${runId}|${oldest}|${interval}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type Step = { type?: string; references?: Record<string, { id?: string }> };

export function liveRunRoutes(deps: LiveRunRouteDeps, guards: Guards<'admin'>): Handlers {
  const { pool, evaluations, log } = deps;

  /** Whether every query step names a revision with data and an invocation filter (else the run is closed). */
  const runnable = async (run: RunRow): Promise<boolean> => {
    const steps = (Array.isArray(run.data?.steps) ? run.data.steps : []) as Step[];
    const queries = steps.filter((s) => s.type === 'input' && s.references?.query_revision?.id);
    if (queries.length === 0) return false;
    for (const s of queries) {
      const r = await queryRevisionSource(pool, run.project_id, s.references!.query_revision!.id!, 'custom');
      if (!r?.data || !isInvocationQuery(r.data)) return false;
    }
    return true;
  };

  return {
    'admin.evaluations.runs.refresh': [...guards.admin, async (req, res) => {
      const q = validate(liveRunsRefreshQuery, req.query);
      const interval = q.trigger_interval ?? 1;
      const trigger = new Date(q.trigger_datetime ?? Date.now());
      trigger.setUTCSeconds(0, 0);
      const newest = trigger.toISOString();
      const oldest = new Date(trigger.getTime() - interval * 60_000).toISOString();
      let failed = 0;
      for (const run of await readLiveRuns(pool)) {
        try {
          // The run's creator in its project: the scope its tick is written under.
          const actor = await projectActor(pool, run.project_id, run.created_by_id, `live-${run.id}`);
          if (!actor) continue;
          if (!(await runnable(run))) {
            await evaluations.run(actor, { type: 'evaluations.run.lifecycle_set', runId: run.id, payload: { run_id: run.id, is_closed: 'true', is_active: 'false', status: '' } });
            continue;
          }
          await evaluations.run(actor, {
            type: 'evaluations.run.dispatched', runId: run.id,
            payload: { run_id: run.id, dispatch_id: tickId(run.id, oldest, interval), slice_json: JSON.stringify({ window: { oldest, newest, interval } }), overwrite: false },
          });
        } catch (err) {
          failed++;
          log.warn({ err, run: run.id }, 'live run tick not dispatched');
        }
      }
      res.json({ status: failed === 0 ? 'success' : 'failure' });
    }],
  };
}
