// The default-queue reconciliation (reference evaluations §3.5), run after every run create or edit
// and every dispatch: a run with human annotation steps (`has_human`) has exactly one active default
// queue; one without has none active. Missing → created (the run's name and description, `running`,
// no filters); archived but needed → unarchived; present but not needed → archived. Each change is a
// queue event on the run's stream, so "at most one default per run" is decided there: a concurrent
// reconciliation that lost the race is refused as `evaluation_queue_default_exists` and ignored.
import { AppError } from '@llm/errors';
import { readDefaultQueue, readRun } from '@llm/evaluation-model';
import { uuidv7 } from '@llm/events';
import type { Pool } from '@llm/postgres';
import type { Actor } from '../../actor.ts';
import type { EvaluationCommands } from './evaluation-commands.ts';

export async function reconcileDefaultQueue(pool: Pool, evaluations: EvaluationCommands, actor: Actor, runId: string): Promise<void> {
  const run = await readRun(pool, actor.scope.projectId, runId);
  if (!run) return;
  const required = run.flags.has_human === true;
  const queue = await readDefaultQueue(pool, actor.scope.projectId, runId, false);
  try {
    if (required && !queue && run.flags.is_closed !== true) {
      await evaluations.run(actor, {
        type: 'evaluations.queues.created', runId,
        payload: { run_id: runId, queues: [{
          queue_id: uuidv7(), name: run.name ?? '', description: run.description ?? '', status: 'running',
          flags_json: JSON.stringify({ is_default: true, is_sequential: false }), tags_json: '', meta_json: '', data_json: '',
        }] },
      });
    } else if (queue && required === (queue.deleted_at !== null)) {
      await evaluations.run(actor, { type: 'evaluations.queue.archive_set', runId, payload: { run_id: runId, queue_id: queue.id, archived: !required } });
    }
  } catch (err) {
    if (err instanceof AppError && err.code === 'evaluation_queue_default_exists') return;
    throw err;
  }
}
