// What the server executes of a run (reference evaluations §4.2): the dispatch classifies the run's
// graph. Supported here, as a batch: testset → application (→ evaluators), testset → evaluators and
// query → evaluators. Refused with a reason (the run ends `failure` and closed, as the reference's
// undispatchable runs): no source, query and testset sources together, a live testset run, more than
// one application, a query feeding an application. Live query runs (the cron's) and direct queues
// are not executed on dispatch: refused the same way, with their own reason. Pure.
import type { RunStep } from './flags.ts';

export interface PlannedStep extends RunStep { key: string }

export type RunPlan =
  | { ok: true; source: 'testsets' | 'queries'; inputs: PlannedStep[]; application: PlannedStep | undefined; evaluators: PlannedStep[] }
  | { ok: false; reason: string };

const hasRef = (s: RunStep, name: string): boolean => !!s.references && typeof s.references === 'object' && Object.hasOwn(s.references, name);

/** `tick`: the dispatch is a live run's tick (the cron's), the only way a live query run executes. */
export function planExecution(steps: readonly PlannedStep[], flags: Record<string, unknown>, tick = false): RunPlan {
  const inputs = steps.filter((s) => s.type === 'input');
  const testsets = inputs.filter((s) => hasRef(s, 'testset_revision'));
  const queries = inputs.filter((s) => hasRef(s, 'query_revision'));
  const applications = steps.filter((s) => s.type === 'invocation');
  const evaluators = steps.filter((s) => s.type === 'annotation');
  if (queries.length > 0 && testsets.length > 0) return { ok: false, reason: 'A run cannot read both queries and testsets.' };
  if (applications.length > 1) return { ok: false, reason: 'A run can invoke at most one application.' };
  if (queries.length > 0 && applications.length > 0) return { ok: false, reason: 'Query sources cannot feed an application.' };
  if (testsets.length > 0 && flags.is_live === true) return { ok: false, reason: 'Testset runs cannot be live.' };
  if (queries.length > 0 && flags.is_live === true && !tick) return { ok: false, reason: 'Live runs over queries are executed by the live-run cron (POST /admin/evaluations/runs/refresh), not on dispatch.' };
  if (tick && (flags.is_live !== true || queries.length === 0)) return { ok: false, reason: 'Only live runs over queries have ticks.' };
  if (queries.length > 0) {
    if (queries.length !== inputs.length) return { ok: false, reason: 'Every input step of a query run must name a query revision.' };
    return { ok: true, source: 'queries', inputs: queries, application: undefined, evaluators };
  }
  if (testsets.length === 0) {
    return { ok: false, reason: inputs.length > 0 ? 'Runs over traces or testcases added directly are not executed by this server yet.' : 'The run has no source to execute.' };
  }
  if (testsets.length !== inputs.length) return { ok: false, reason: 'Every input step of a testset run must name a testset revision.' };
  return { ok: true, source: 'testsets', inputs: testsets, application: applications[0], evaluators };
}

/** The run's status after a slice (§3.3): `errors` if a scenario errored, else `running` while one waits, else `success`; a stored failure or errors stays. */
export function finalStatus(stored: string, scenarioStatuses: readonly string[]): string {
  if (stored === 'failure' || stored === 'errors') return stored;
  if (scenarioStatuses.includes('errors') || scenarioStatuses.includes('failure')) return 'errors';
  if (scenarioStatuses.some((s) => s === 'pending' || s === 'running' || s === 'queued')) return 'running';
  return 'success';
}

/** A scenario's status after its cells (§3.3): `errors` (a failed cell or refresh) > `pending` (a cell awaits a person) > `success`. */
export function scenarioStatus(cellStatuses: readonly string[], refreshFailed: boolean): 'errors' | 'pending' | 'success' {
  if (refreshFailed || cellStatuses.includes('failure')) return 'errors';
  if (cellStatuses.includes('pending')) return 'pending';
  return 'success';
}
