// Summaries of given traces for evaluation metrics (reference evaluations §3.4): which of the traces
// the span store holds, the `ag.data.outputs` of their root spans (to infer an outputs schema), and
// one spec-driven summary (packages/span-analytics) over their root spans — one bucket from the
// first to the last trace. Read by trace id through the trace index, so a statement reads only the
// time ranges the traces occupy; always scoped to the project and its retention bound.
import type { Clickhouse } from '@llm/clickhouse';
import { buildAnalyticsQuery, compileScope, paramValues, parseSpecs, planBuckets, planSpecs, shapeAnalytics, type Scope } from '@llm/span-analytics';
import { locateTraces, RETAINED_SPANS_SQL, timeRangesPredicate, type TraceRange } from '@llm/span-table';
import { ReadModel } from './read-model.ts';

export interface TraceMetricSpec { type: string; path: string }

export interface TraceMetrics {
  /** Of the traces (32 hex), those the span store holds now. */
  stored(projectId: string, traceIds: readonly string[]): Promise<string[]>;
  /** The `ag.data.outputs` of the traces' root spans, in trace id order (at most `limit`). */
  outputs(projectId: string, traceIds: readonly string[], limit: number): Promise<unknown[]>;
  /** One summary of the traces' root spans: spec path → metric (absent when nothing was computed). */
  summarise(projectId: string, traceIds: readonly string[], specs: readonly TraceMetricSpec[]): Promise<Record<string, unknown>>;
}

const PROJECT = 'm_project';

export function traceMetrics(ch: Clickhouse, opts: { queryTimeoutMs?: number } = {}): TraceMetrics {
  const rm = new ReadModel(ch, opts.queryTimeoutMs);
  const locate = (projectId: string, traceIds: readonly string[]): Promise<TraceRange[]> =>
    rm.guard(() => locateTraces(ch, rm.tables, projectId, [...new Set(traceIds)]));

  /** The roots of the traces: project, retention, trace ids, and the time ranges they occupy. */
  async function rootsOf(projectId: string, ranges: TraceRange[]): Promise<{ where: string; params: Record<string, unknown> }> {
    const time = timeRangesPredicate(ranges, 'm_tr');
    return {
      where: `project_id = {${PROJECT}:String} AND is_root = 1 AND is_deleted = 0 AND (${RETAINED_SPANS_SQL}) AND trace_id IN {m_traces:Array(String)} AND (${time.sql})`,
      params: { [PROJECT]: projectId, m_traces: ranges.map((r) => r.trace_id), ...time.params, ...await rm.retention(projectId, 'spans') },
    };
  }

  return {
    async stored(projectId, traceIds) {
      return (await locate(projectId, traceIds)).map((r) => r.trace_id);
    },

    async outputs(projectId, traceIds, limit) {
      const ranges = await locate(projectId, traceIds);
      if (ranges.length === 0) return [];
      const roots = await rootsOf(projectId, ranges);
      const rows = await rm.run<{ attributes: string }>(
        `SELECT attributes FROM ${rm.roots} FINAL WHERE ${roots.where} ORDER BY trace_id LIMIT ${Math.max(1, Math.floor(limit))}`, roots.params,
      );
      return rows.map((r) => {
        try { return (JSON.parse(r.attributes) as { ag?: { data?: { outputs?: unknown } } }).ag?.data?.outputs; } catch { return undefined; }
      }).filter((o) => o !== undefined);
    },

    async summarise(projectId, traceIds, specs) {
      const ranges = await locate(projectId, traceIds);
      const parsed = parseSpecs(specs);
      if (ranges.length === 0 || !parsed.ok) return {};
      const oldestUs = Math.min(...ranges.map((r) => r.first_us));
      const newestUs = Math.max(...ranges.map((r) => r.last_us)) + 1;
      const plan = planBuckets({ oldestUs, newestUs });
      const scoped = compileScope({ filter: undefined, focus: 'trace', window: { oldestUs, newestUs } }, { projectParam: PROJECT });
      if (!scoped.ok) return {};
      const roots = await rootsOf(projectId, ranges);
      // The compiled scope (window, roots, not deleted) narrowed to the traces; the project clause is ours.
      const scope: Scope = { where: `${scoped.scope.where} AND ${roots.where}`, params: scoped.scope.params };
      const planned = planSpecs(parsed.specs);
      const st = buildAnalyticsQuery(rm.roots, scope, plan, planned);
      if (!st) return {};
      const rows = await rm.run<Record<string, unknown>>(st.sql, { ...paramValues(st.params), ...roots.params });
      return shapeAnalytics(rows, plan, planned)[0]?.metrics ?? {};
    },
  };
}
