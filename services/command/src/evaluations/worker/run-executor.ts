// Executes one dispatch of a run (reference evaluations §4.2 batch testset and batch query, §3.3,
// §3.7): the graph planned (run/plan.ts; undispatchable → `failure` and closed), the sources
// resolved into one scenario each — the testset revisions' testcases, or the traces the saved-query
// revisions select (adapters/query-traces.ts) — once: a restart or `…/process` reuses the run's
// scenarios, their source read from their input cells. Then per scenario, a few at a time: the
// input cells, the application invoked once (each repeat when `is_split`), each `auto` evaluator
// per repeat with the application's outputs (or the selected trace's) and a link to that trace (with
// `is_cached`, a stored trace of the same hash instead), `pending` cells for human and custom evaluators,
// the scenario's metrics refreshed and its status set; then the global metrics and the run's
// finalisation. Every write is an event through EvaluationCommands, under the rules every client
// write follows: a run closed meanwhile stops the execution with the closed-run rejection.
import type { Logger } from 'pino';
import { AppError } from '@llm/errors';
import {
  finalStatus, planExecution, queryResults, queryScenarios, readRun, readScenarios, scenarioStatus,
  type DispatchRow, type PlannedStep, type ResultRow, type RunRow, type ScenarioRow,
} from '@llm/evaluation-model';
import { parseUuid } from '@llm/contracts';
import { uuidv7, type EvaluationResultInfo } from '@llm/events';
import type { Pool } from '@llm/postgres';
import type { SearchDeps } from '@llm/span-read';
import type { Actor } from '../../actor.ts';
import type { EvaluationCommands } from '../adapters/evaluation-commands.ts';
import type { MetricsRefresh } from '../adapters/metrics-refresh.ts';
import { invocationInputs, type Invocation, type InvocationResult, type WorkflowInvoker } from '../adapters/workflow-invoker.ts';
import { cachedInvocation, invocationHash } from '../adapters/cached-invocations.ts';
import { resolveRun, testcaseSources, traceSources, type Resolved, type Source } from './run-sources.ts';
import { editedScenario, newScenario, resultInfo } from '../domain/payloads.ts';
import { reconcileDefaultQueue } from '../adapters/default-queue.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface RunExecutorDeps {
  pool: Pool;
  evaluations: EvaluationCommands;
  refresh: MetricsRefresh;
  invoker: WorkflowInvoker;
  /** Scenarios executed at once (EVALUATION_WORKER_CONCURRENCY). */
  concurrency: number;
  /** The span store's searches, for runs over saved queries; absent = such runs fail with a reason. */
  search?: SearchDeps | undefined;
  log: Logger;
}

interface Item { scenario: ScenarioRow; source: Source }

/** The scenarios (and new scenarios) are added in events of at most this many. */
const SCENARIO_BATCH = 500;

export class RunExecutor {
  constructor(private readonly deps: RunExecutorDeps) {}

  /** The dispatch executed; its outcome for the dispatch row (`done`, `skipped: …`, `failed: …`). */
  async execute(actor: Actor, d: DispatchRow): Promise<string> {
    const { pool } = this.deps;
    const run = await readRun(pool, d.project_id, d.run_id);
    if (!run) return 'skipped: the run is gone';
    if (run.flags.is_closed === true) return 'skipped: the run is closed';
    await reconcileDefaultQueue(pool, this.deps.evaluations, actor, run.id);
    const steps = (Array.isArray(run.data?.steps) ? run.data.steps : []) as PlannedStep[];
    const tick = d.slice.window;
    const plan = planExecution(steps, run.flags, tick !== undefined);
    if (!plan.ok) {
      await this.lifecycle(actor, run, { status: 'failure', is_active: 'false', is_closed: 'true' });
      return `failed: ${plan.reason}`;
    }
    const resolved = await resolveRun(pool, run, plan);
    if (!resolved) {
      await this.lifecycle(actor, run, { status: 'failure', is_active: 'false' });
      return 'failed: a revision the run names is gone';
    }
    const { application, evaluators } = resolved;
    let sources: Source[];
    if (plan.source === 'queries') {
      if (!this.deps.search) {
        await this.lifecycle(actor, run, { status: 'failure', is_active: 'false' });
        return 'failed: runs over queries need the span store (CLICKHOUSE_URL)';
      }
      sources = await traceSources(pool, this.deps.search, run, resolved.inputs, tick);
    } else {
      sources = testcaseSources(resolved.inputs);
    }

    const ctxOf = { actor, run, d, application, evaluators, repeats: repeatsOf(run), split: run.flags.is_split === true, cached: run.flags.is_cached === true };
    if (tick) {
      // A live run's tick (§4.2): new scenarios stamped with the tick, their cells, then the tick's
      // temporal metrics. Live runs are never finalised.
      const stamp = { timestamp: tick.oldest, interval: tick.interval };
      const fresh = await this.addScenarios(actor, run, sources, stamp);
      await inBatches(fresh, this.deps.concurrency, (it) => this.scenario(ctxOf, it));
      if (fresh.length > 0) {
        await this.deps.refresh.refresh(actor, run.id, undefined, stamp).catch((err: unknown) => { this.deps.log.warn({ err, run: run.id }, 'temporal metrics refresh failed'); });
      }
      return `done: ${fresh.length} trace(s) in [${tick.oldest}, ${tick.newest})`;
    }
    const items = await this.items(actor, run, sources, plan.inputs.map((s) => s.key), d.slice.scenario_ids);
    if (items.length === 0 && (await this.scenarios(run)).length === 0) {
      await this.lifecycle(actor, run, { status: 'success', is_active: 'false' });
      return 'done';
    }
    await inBatches(items, this.deps.concurrency, (it) => this.scenario(ctxOf, it));
    await this.deps.refresh.refresh(actor, run.id, undefined).catch((err: unknown) => { this.deps.log.warn({ err, run: run.id }, 'global metrics refresh failed'); });
    const after = await readRun(pool, run.project_id, run.id);
    if (!after || after.flags.is_closed === true) return 'done';
    const status = finalStatus(after.status, (await this.scenarios(after)).map((s) => s.status));
    await this.lifecycle(actor, after, { status, ...(status === 'running' ? {} : { is_active: 'false' }) });
    return 'done';
  }

  private scenarios(run: RunRow): Promise<ScenarioRow[]> {
    return queryScenarios(this.deps.pool, run.project_id, { run_id: run.id }, { order: 'ascending' });
  }

  /** One new scenario per source (stamped with a live tick's timestamp and interval), in the sources' order. */
  private async addScenarios(actor: Actor, run: RunRow, sources: Source[], stamp?: { timestamp: string; interval: number }): Promise<Item[]> {
    const added: Array<{ id: string; source: Source }> = [];
    for (let i = 0; i < sources.length; i += SCENARIO_BATCH) {
      const batch = sources.slice(i, i + SCENARIO_BATCH).map((source) => ({ id: uuidv7(), source }));
      await this.deps.evaluations.run(actor, {
        type: 'evaluations.scenarios.added', runId: run.id,
        payload: { run_id: run.id, scenarios: batch.map((b) => newScenario(b.id, { status: 'running', ...(stamp ? { timestamp: stamp.timestamp, interval: stamp.interval } : {}) })) },
      });
      added.push(...batch);
    }
    const rows = new Map((await readScenarios(this.deps.pool, run.project_id, added.map((a) => a.id))).map((r) => [r.id, r]));
    return added.filter((a) => rows.has(a.id)).map((a) => ({ scenario: rows.get(a.id)!, source: a.source }));
  }

  /** The scenarios to execute with their sources: the run's own (by their input cells), else one new scenario per source. */
  private async items(actor: Actor, run: RunRow, sources: Source[], inputKeys: string[], only: string[] | undefined): Promise<Item[]> {
    const wanted = only ? new Set(only.map((s) => s.toLowerCase())) : undefined;
    const scenarios = await this.scenarios(run);
    if (scenarios.length === 0) return (await this.addScenarios(actor, run, sources)).filter((x) => !wanted || wanted.has(x.scenario.id));
    // A source is named by its input cells: the testcase id, or the trace id (stored dashed).
    const byId = new Map(sources.map((t) => [t.id.replaceAll('-', '').toLowerCase(), t]));
    const cells = await queryResults(this.deps.pool, run.project_id, { run_id: run.id, step_keys: inputKeys }, undefined);
    const sourceOf = new Map<string, Source>();
    for (const c of cells) {
      const named = (c.testcase_id ?? c.trace_id ?? '').replaceAll('-', '').toLowerCase();
      const found = byId.get(named);
      if (found) sourceOf.set(c.scenario_id, found);
    }
    // Scenarios without an input cell yet (added by `scenarios/add`) take the other sources in order.
    const used = new Set(sourceOf.values());
    const unused = sources.filter((t) => !used.has(t));
    for (const s of scenarios) if (!sourceOf.has(s.id) && unused.length > 0) sourceOf.set(s.id, unused.shift()!);
    return scenarios.filter((s) => sourceOf.has(s.id) && (!wanted || wanted.has(s.id))).map((s) => ({ scenario: s, source: sourceOf.get(s.id)! }));
  }

  /** One scenario's cells, metrics and status. A closed run's rejection ends the whole execution. */
  private async scenario(
    ctx: { actor: Actor; run: RunRow; d: DispatchRow; application: Resolved | undefined; evaluators: Resolved[]; repeats: number; split: boolean; cached: boolean },
    it: Item,
  ): Promise<void> {
    const { actor, run, d } = ctx;
    const { pool, evaluations, invoker } = this.deps;
    const { step, testcase, trace } = it.source;
    const stepWanted = (key: string): boolean => !d.slice.step_keys || d.slice.step_keys.includes(key);
    const repeatWanted = (r: number): boolean => !d.slice.repeat_idxs || d.slice.repeat_idxs.includes(r);
    const existing = new Map<string, ResultRow>();
    for (const c of await queryResults(pool, run.project_id, { run_id: run.id, scenario_ids: [it.scenario.id] }, undefined)) existing.set(`${c.step_key}\u0000${c.repeat_idx}`, c);
    const done = (key: string, r: number): boolean => !d.overwrite && existing.get(`${key}\u0000${r}`)?.status === 'success';
    const repeats = Array.from({ length: ctx.repeats }, (_, r) => r).filter(repeatWanted);
    const cells: EvaluationResultInfo[] = [];
    const cell = (key: string, r: number, c: { status: 'success' | 'failure' | 'pending'; trace_id?: string | undefined; hash_id?: string | undefined; error?: Json | undefined }): void => {
      cells.push(resultInfo(existing.get(`${key}\u0000${r}`)?.id ?? uuidv7(), {
        scenario_id: it.scenario.id, step_key: key, repeat_idx: r, status: c.status, ...(testcase ? { testcase_id: testcase.id } : {}),
        ...(c.trace_id ? { trace_id: parseUuid(c.trace_id) ?? null } : {}), ...(c.hash_id ? { hash_id: c.hash_id } : {}), ...(c.error ? { error: c.error } : {}),
      }));
    };
    const testcaseRefs = testcase
      ? { testcase: { id: testcase.id }, ...pick(step.references, ['testset', 'testset_variant', 'testset_revision']) }
      : pick(step.references, ['query', 'query_variant', 'query_revision']);
    const inputs = (data: Json | null): Json => (testcase ? invocationInputs(data, testcase.data) : trace?.inputs ?? {});
    // With `is_cached`, a successful trace of the same hash (same references and links) is reused
    // instead of invoking again (adapters/cached-invocations.ts); the cell records the hash either way.
    const invoke = async (inv: Invocation): Promise<InvocationResult & { hashId?: string | undefined }> => {
      const hashId = ctx.cached ? invocationHash(inv) : undefined;
      if (hashId && this.deps.search) {
        const hit = await cachedInvocation(this.deps.search, run.project_id, hashId).catch((err: unknown) => {
          this.deps.log.warn({ err, run: run.id }, 'cached trace lookup failed; invoking');
          return undefined;
        });
        if (hit) return { ...hit, hashId };
      }
      return { ...(await invoker.invoke(actor, inv)), hashId };
    };

    for (const r of repeats) if (stepWanted(step.key) && !done(step.key, r)) cell(step.key, r, { status: 'success', ...(trace ? { trace_id: trace.traceId } : {}) });

    // The application: once (repeat 0), or per repeat when the run splits; its outputs feed the evaluators.
    const upstream = new Map<number, InvocationResult>();
    const app = ctx.application;
    const runnable = ctx.evaluators.filter((e) => e.step.origin === 'auto' && stepWanted(e.step.key));
    if (app) {
      const appRepeats = ctx.split ? repeats : [0];
      for (const r of appRepeats) {
        const needed = stepWanted(app.step.key) && !done(app.step.key, r);
        const evaluatorsNeed = runnable.some((e) => repeats.some((er) => (ctx.split ? er === r : true) && !done(e.step.key, er)));
        if (!needed && !evaluatorsNeed) continue;
        const data = app.revision.data;
        const res = await invoke({
          role: 'application', data, references: { ...testcaseRefs, ...pick(app.step.references, ['application', 'application_variant', 'application_revision']) },
          testcase, inputs: inputs(data),
        });
        upstream.set(r, res);
        cell(app.step.key, r, res.ok ? { status: 'success', trace_id: res.traceId, hash_id: res.hashId } : { status: 'failure', trace_id: res.traceId, hash_id: res.hashId, error: res.error });
      }
    }
    for (const e of ctx.evaluators) {
      if (!stepWanted(e.step.key)) continue;
      for (const r of repeats) {
        if (done(e.step.key, r)) continue;
        if (e.step.origin !== 'auto') {
          // A person (human) or the client (custom) writes these: the server leaves them pending.
          if (!existing.has(`${e.step.key}\u0000${r}`)) cell(e.step.key, r, { status: 'pending' });
          continue;
        }
        const up = app ? upstream.get(ctx.split ? r : 0) : undefined;
        if (app && (!up || !up.ok)) continue;
        const data = e.revision.data;
        // The upstream an evaluator judges: the application's invocation, else the trace the query selected.
        const judged = up?.traceId && up.spanId ? { outputs: up.outputs, link: { trace_id: up.traceId, span_id: up.spanId } }
          : trace ? { outputs: trace.outputs, link: { trace_id: trace.traceId, span_id: trace.spanId } } : undefined;
        const res = await invoke({
          role: 'evaluator', data, references: { ...testcaseRefs, ...pick(e.step.references, ['evaluator', 'evaluator_variant', 'evaluator_revision']) },
          testcase, inputs: inputs(data), upstream: judged,
        });
        cell(e.step.key, r, res.ok ? { status: 'success', trace_id: res.traceId, hash_id: res.hashId } : { status: 'failure', trace_id: res.traceId, hash_id: res.hashId, error: res.error });
      }
    }
    if (cells.length > 0) await evaluations.run(actor, { type: 'evaluations.results.upserted', runId: run.id, payload: { run_id: run.id, results: cells } });

    let refreshFailed = false;
    try {
      await this.deps.refresh.refresh(actor, run.id, it.scenario.id);
    } catch (err) {
      if (err instanceof AppError && err.code === 'evaluation_run_closed') throw err;
      refreshFailed = true;
      this.deps.log.warn({ err, run: run.id, scenario: it.scenario.id }, 'scenario metrics refresh failed');
    }
    // The scenario's cells now: the ones read before, with this pass's writes over them.
    const statuses = new Map([...existing].map(([k, c]) => [k, c.status]));
    for (const c of cells) statuses.set(`${c.step_key}\u0000${c.repeat_idx}`, c.status);
    const status = scenarioStatus([...statuses.values()], refreshFailed);
    await evaluations.run(actor, { type: 'evaluations.scenarios.edited', runId: run.id, payload: { run_id: run.id, scenarios: [editedScenario(it.scenario, { status })] } });
  }

  private async lifecycle(actor: Actor, run: RunRow, set: { status?: string; is_active?: string; is_closed?: string }): Promise<void> {
    await this.deps.evaluations.run(actor, {
      type: 'evaluations.run.lifecycle_set', runId: run.id,
      payload: { run_id: run.id, status: set.status ?? '', is_active: set.is_active ?? '', is_closed: set.is_closed ?? '' },
    });
  }
}

function repeatsOf(run: RunRow): number {
  const r = run.data?.repeats;
  return typeof r === 'number' && Number.isInteger(r) && r >= 1 ? Math.min(r, 100) : 1;
}

function pick(refs: unknown, keys: readonly string[]): Json {
  if (!isObject(refs)) return {};
  return Object.fromEntries(keys.filter((k) => k in refs).map((k) => [k, refs[k]]));
}

/** Runs `fn` over the items, at most `n` at once; the first error stops new work and is thrown after the running ones end. */
async function inBatches<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: unknown;
  const lane = async (): Promise<void> => {
    while (failed === undefined && next < items.length) {
      const item = items[next++]!;
      try { await fn(item); } catch (err) { failed ??= err; }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, lane));
  if (failed !== undefined) throw failed;
}
