// Removing steps from a run prunes what hung on them (reference evaluations §2.3 run PATCH, §2.4
// steps/remove): the removed steps' cells, then the scenarios those cells leave without any cell.
// Each is one run event (results deleted, then scenarios deleted), decided like any other write.
import type { Request } from 'express';
import { queryResults, type RunRow } from '@llm/evaluation-model';
import type { Pool } from '@llm/postgres';
import type { EvaluationCommands } from './evaluation-commands.ts';

type Step = { key: string };
const keysOf = (data: Record<string, unknown> | null | undefined): string[] =>
  (Array.isArray(data?.steps) ? (data.steps as Step[]) : []).map((s) => s.key);

/** The step keys `before` has and `after` lacks (none when `after` carries no steps). */
export function removedSteps(before: Record<string, unknown> | null, after: Record<string, unknown> | null | undefined): string[] {
  if (!after || !Array.isArray(after.steps)) return [];
  const kept = new Set(keysOf(after));
  return keysOf(before).filter((k) => !kept.has(k));
}

export async function pruneSteps(pool: Pool, evaluations: EvaluationCommands, req: Request, run: RunRow, stepKeys: readonly string[]): Promise<void> {
  if (stepKeys.length === 0) return;
  const cells = await queryResults(pool, req.scope.projectId, { run_id: run.id, step_keys: [...stepKeys] }, undefined);
  if (cells.length === 0) return;
  await evaluations.run(req, { type: 'evaluations.results.deleted', runId: run.id, payload: { run_id: run.id, result_ids: cells.map((c) => c.id) } });
  const touched = [...new Set(cells.map((c) => c.scenario_id))];
  const remaining = new Set((await queryResults(pool, req.scope.projectId, { run_id: run.id, scenario_ids: touched }, undefined)).map((c) => c.scenario_id));
  const empty = touched.filter((s) => !remaining.has(s));
  if (empty.length > 0) await evaluations.run(req, { type: 'evaluations.scenarios.deleted', runId: run.id, payload: { run_id: run.id, scenario_ids: empty } });
}
