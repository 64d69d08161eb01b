// Metrics refreshed from the traces of a run's cells (reference evaluations §3.4; docs/design/
// evaluations.md §3.7), for one key: the whole run (global), one scenario (variational), or a live
// run's tick (temporal: the scenarios stamped with the tick's timestamp).
//   1. the run's cells with a trace, by step (invocation and annotation steps), and the run's
//      results_seq they were read at; no trace at all → no row;
//   2. per step, the cumulative metrics and one per leaf of the evaluator's outputs schema (declared
//      in the step, else inferred from the root spans of its first five traces in id order);
//   3. a bounded wait until the span store holds every one of those traces (spans arrive
//      asynchronously; the SDK refreshes as soon as it wrote the cell), then one summary per step
//      over the traces' root spans (packages/span-read trace-metrics) — both batched with the other
//      refreshes of the project that are waiting meanwhile (trace-summary-batcher.ts);
//   4. unchanged from the stored row → nothing is appended (idempotent); otherwise one
//      `evaluations.metrics.refreshed` carrying the values and results_seq, which the projector
//      stores unless a refresh of newer cells is already there. Replay never reads ClickHouse.
import type { Actor } from '../../actor.ts';
import { AppError, sleep, unavailable } from '@llm/errors';
import {
  RUN_CLOSED_MESSAGE, evaluationRejectionError, inferOutputsSchema, readCellTraces, readMetricKeys, readRun, stepSpecs, type MetricRow, type RunRow,
} from '@llm/evaluation-model';
import { uuidv7 } from '@llm/events';
import type { Pool } from '@llm/postgres';
import type { LocatedTraces, TraceMetrics } from '@llm/span-read';
import type { EvaluationCommands } from './evaluation-commands.ts';
import { TraceSummaryBatcher } from './trace-summary-batcher.ts';

export interface MetricsRefreshOptions {
  /** How long a refresh waits for its cells' traces to be stored (METRICS_TRACE_WAIT_MS). */
  traceWaitMs?: number;
}

type Json = Record<string, unknown>;
interface Step { key: string; type?: string; schemas?: { outputs?: unknown } }

/** JSON text with sorted keys: the stored jsonb orders keys its own way. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Json)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}


export class MetricsRefresh {
  private readonly traceWaitMs: number;
  /** The span-store statements of concurrent refreshes, shared per project (trace-summary-batcher.ts). */
  private readonly batcher: TraceSummaryBatcher | undefined;

  constructor(private readonly pool: Pool, private readonly evaluations: EvaluationCommands, private readonly source: TraceMetrics | undefined, opts: MetricsRefreshOptions = {}) {
    this.traceWaitMs = opts.traceWaitMs ?? 10_000;
    this.batcher = source ? new TraceSummaryBatcher(source) : undefined;
  }

  /** The key's row after the refresh; undefined when the run is unknown or none of its cells has a trace. */
  async refresh(req: Actor, runId: string, scenarioId: string | undefined, at?: { timestamp: string; interval: number }): Promise<MetricRow | undefined> {
    const projectId = req.scope.projectId;
    const run = await readRun(this.pool, projectId, runId);
    if (!run) return undefined;
    if (run.flags.is_closed === true) {
      throw evaluationRejectionError({ status: 'rejected', code: 'evaluation_run_closed', message: RUN_CLOSED_MESSAGE, details: { run_id: run.id, ...(scenarioId ? { scenario_ids: [scenarioId] } : {}) } });
    }
    const { source, batcher } = this;
    if (!source || !batcher) throw unavailable('metrics_unavailable', 'Metrics cannot be computed here: the span store is not configured (CLICKHOUSE_URL).');
    const traces = await this.cellTraces(run, scenarioId, at?.timestamp);
    if (traces.size === 0) return undefined;
    const deadline = Date.now() + this.traceWaitMs;

    const steps = new Map(((run.data?.steps ?? []) as Step[]).map((s) => [s.key, s]));
    const keys = [...traces.keys()];
    const groups = keys.map((k) => [...traces.get(k)!].sort());
    // Outputs schemas: declared on the step, else inferred from its first five traces (one read for
    // every such step) and written into the run's steps, so later refreshes use the same schema.
    const declared = keys.map((k) => steps.get(k)?.schemas?.outputs);
    const undeclared = declared.map((d) => d === undefined || d === null);
    if (undeclared.some(Boolean)) {
      const located = await this.waitForTraces(source, projectId, [...new Set(groups.flat())], deadline);
      const samples = await source.outputs(located, groups.map((g, i) => (undeclared[i] ? g : [])), 5);
      const inferred: Json = {};
      keys.forEach((k, i) => {
        if (!undeclared[i]) return;
        const schema = inferOutputsSchema(samples[i] ?? []);
        if (schema) { declared[i] = schema; inferred[k] = schema; }
      });
      if (Object.keys(inferred).length > 0) {
        await this.evaluations.run(req, { type: 'evaluations.run.schemas_inferred', runId: run.id, payload: { run_id: run.id, schemas_json: JSON.stringify(inferred) } });
      }
    }
    const specs = declared.map((d) => stepSpecs(d));
    const summaries = await batcher.summarise(projectId, groups, specs, Math.max(0, deadline - Date.now()));
    const data: Json = {};
    keys.forEach((k, i) => { if (Object.keys(summaries[i] ?? {}).length > 0) data[k] = summaries[i]; });
    if (Object.keys(data).length === 0) return undefined;

    const key = { scenario_id: at ? '' : scenarioId ?? '', timestamp: at?.timestamp ?? '' };
    const [stored] = await readMetricKeys(this.pool, run.id, [key]);
    if (stored && stored.status === 'success' && canonical(stored.data) === canonical(data) && stored.results_seq === run.results_seq) return stored;
    await this.evaluations.run(req, {
      type: 'evaluations.metrics.refreshed', runId: run.id,
      payload: {
        run_id: run.id, results_seq: Number(run.results_seq),
        metric: { metric_id: stored?.id ?? uuidv7(), scenario_id: key.scenario_id, timestamp: key.timestamp, interval: at?.interval ?? -1, status: 'success', data_json: JSON.stringify(data), flags_json: '', tags_json: '', meta_json: '' },
      },
    });
    return (await readMetricKeys(this.pool, run.id, [key]))[0];
  }

  /** Trace ids (32 hex) of the key's cells, by refreshable step (all steps when the run declares none). */
  private async cellTraces(run: RunRow, scenarioId: string | undefined, timestamp?: string): Promise<Map<string, string[]>> {
    const declared = (run.data?.steps ?? []) as Step[];
    const refreshable = declared.length === 0 ? undefined : new Set(declared.filter((s) => s.type === 'invocation' || s.type === 'annotation').map((s) => s.key));
    const out = new Map<string, string[]>();
    for (const c of await readCellTraces(this.pool, run.id, scenarioId, timestamp)) {
      if (refreshable && !refreshable.has(c.step_key)) continue;
      const list = out.get(c.step_key);
      if (list) list.push(c.trace_id);
      else out.set(c.step_key, [c.trace_id]);
    }
    return out;
  }

  /** Waits (bounded) until the span store holds every trace's root span; then computes with what is there. */
  private async waitForTraces(source: TraceMetrics, projectId: string, traceIds: string[], deadline: number): Promise<LocatedTraces> {
    for (let i = 0; ; i++) {
      let located: LocatedTraces;
      try {
        located = await source.locate(projectId, traceIds);
      } catch (err) {
        throw err instanceof AppError ? err : unavailable('read_model_unavailable', 'The span store could not answer in time; retry shortly.', err);
      }
      if (located.roots.size >= traceIds.length || Date.now() >= deadline) return located;
      await sleep(Math.min(50 * 2 ** i, 500));
    }
  }
}
