// What a dispatched run reads before it executes (reference evaluations §4.2): the revisions its
// steps name, resolved in the run's project, and its sources — the testcases of its testset
// revisions, or the traces its saved-query revisions select (a live tick: in the tick's window,
// without the traces the run already has). One source becomes one scenario.
import type { GraphRevision, PlannedStep, RunPlan, RunRow } from '@llm/evaluation-model';
import { readInputTraceIds } from '@llm/evaluation-model';
import type { Pool } from '@llm/postgres';
import type { SearchDeps } from '@llm/span-read';
import { artifactRevisionSource, queryRevisionSource } from '../adapters/graph-sources.ts';
import { queryTraces, type QueryTrace } from '../adapters/query-traces.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What one scenario is about: a testcase of a testset revision, or a trace a saved query selected. */
export interface Source { id: string; step: PlannedStep; testcase?: { id: string; data: Json }; trace?: QueryTrace }
export interface Resolved { revision: GraphRevision; step: PlannedStep }
export interface ResolvedRun { inputs: Resolved[]; application: Resolved | undefined; evaluators: Resolved[] }

type Executable = Extract<RunPlan, { ok: true }>;

/** The plan's revisions, read in the run's project; undefined when one is gone. */
export async function resolveRun(pool: Pool, run: RunRow, plan: Executable): Promise<ResolvedRun | undefined> {
  const read = async (entity: 'testset' | 'application' | 'evaluator' | 'query', s: PlannedStep): Promise<Resolved | undefined> => {
    const ref = isObject(s.references) ? s.references[`${entity}_revision`] : undefined;
    const id = isObject(ref) && typeof ref.id === 'string' ? ref.id : undefined;
    if (!id) return undefined;
    const revision = entity === 'query' ? await queryRevisionSource(pool, run.project_id, id, s.origin) : await artifactRevisionSource(pool, run.project_id, entity, id, s.origin);
    return revision ? { revision, step: s } : undefined;
  };
  const inputs = await Promise.all(plan.inputs.map((s) => read(plan.source === 'queries' ? 'query' : 'testset', s)));
  const application = plan.application ? await read('application', plan.application) : undefined;
  const evaluators = await Promise.all(plan.evaluators.map((s) => read('evaluator', s)));
  if (inputs.some((t) => !t) || (plan.application && !application) || evaluators.some((e) => !e)) return undefined;
  return { inputs: inputs as Resolved[], application, evaluators: evaluators as Resolved[] };
}

/** The testcases of the testset revisions, in order. */
export function testcaseSources(inputs: readonly Resolved[]): Source[] {
  return inputs.flatMap((t) => {
    const list = Array.isArray(t.revision.data?.testcases) ? t.revision.data.testcases : [];
    return list.filter(isObject).filter((c) => typeof c.id === 'string' && isObject(c.data))
      .map((c) => ({ id: c.id as string, step: t.step, testcase: { id: c.id as string, data: c.data as Json } }));
  });
}

/** The traces the query revisions select (a live tick: in its window, none the run already has). */
export async function traceSources(
  pool: Pool, search: SearchDeps, run: RunRow, inputs: readonly Resolved[], tick: { oldest: string; newest: string } | undefined,
): Promise<Source[]> {
  const seen = tick ? await readInputTraceIds(pool, run.id, inputs.map((q) => q.step.key)) : new Set<string>();
  const out: Source[] = [];
  for (const q of inputs) {
    const data = q.revision.data ?? {};
    const windowed = tick ? { ...data, windowing: { ...(isObject(data.windowing) ? data.windowing : {}), oldest: tick.oldest, newest: tick.newest } } : data;
    for (const trace of await queryTraces(search, run.project_id, windowed)) if (!seen.has(trace.traceId)) out.push({ id: trace.traceId, step: q.step, trace });
  }
  return out;
}
