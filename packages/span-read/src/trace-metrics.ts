// Summaries of given traces for evaluation metrics (reference evaluations §3.4): which of the traces
// the span store holds, the `ag.data.outputs` of their root spans (to infer an outputs schema), and
// one spec-driven summary (packages/span-analytics) over their root spans per group of traces.
// Read by trace id through the trace index, so a statement reads only the time ranges the traces
// occupy; always scoped to the project and its retention bound.
import type { Clickhouse } from '@llm/clickhouse';
import { buildAnalyticsQuery, paramValues, parseSpecs, planBuckets, planSpecs, shapeAnalytics, type Scope } from '@llm/span-analytics';
import { locateTraces, RETAINED_SPANS_SQL, timeRangesPredicate, traceIdsParam, traceIdsSql, type TraceRange } from '@llm/span-table';
import { ReadModel } from './read-model.ts';

export interface TraceMetricSpec { type: string; path: string }

/** Where given traces are: their time ranges (trace index) and which have a stored root span. */
export interface LocatedTraces { projectId: string; ranges: TraceRange[]; roots: Set<string> }

export interface TraceMetrics {
  /** Finds the traces (32 hex): their time ranges, and which of them have their root span stored. */
  locate(projectId: string, traceIds: readonly string[]): Promise<LocatedTraces>;
  /** The `ag.data.outputs` of the root spans of each group's traces (located), in trace id order (at most `limit` per group). */
  outputs(located: LocatedTraces, groups: ReadonlyArray<readonly string[]>, limit: number): Promise<unknown[][]>;
  /**
   * One summary per group of traces (32 hex) over their root spans, in one statement (no locate
   * first: the traces' time bounds come from the trace index inside it): spec path → metric, per
   * group (empty when nothing was computed), `specs[i]` being group i's. Also answers, per group,
   * how many of its traces have a stored root (a trace in several groups counts in the first), so a
   * caller can wait until all are there.
   */
  summariseStored(projectId: string, groups: ReadonlyArray<readonly string[]>, specs: ReadonlyArray<readonly TraceMetricSpec[]>): Promise<StoredSummaries>;
}

export interface StoredSummaries {
  summaries: Array<Record<string, unknown>>;
  stored: number[];
  /** False when the specs compute nothing (refused, or none active): no statement ran, `stored` says nothing. */
  computed: boolean;
}

const PROJECT = 'm_project';

export function traceMetrics(ch: Clickhouse, opts: { queryTimeoutMs?: number } = {}): TraceMetrics {
  const rm = new ReadModel(ch, opts.queryTimeoutMs);

  /** The roots of the traces (`ids`: a traceIdsParam): project, retention, trace ids, and a bound on their start times. */
  async function rootsWhere(projectId: string, ids: string, time: { sql: string; params: Record<string, unknown> }): Promise<{ where: string; params: Record<string, unknown> }> {
    return {
      where: `project_id = {${PROJECT}:String} AND is_root = 1 AND is_deleted = 0 AND (${RETAINED_SPANS_SQL}) AND trace_id IN ${traceIdsSql('m_traces')} AND (${time.sql})`,
      params: { [PROJECT]: projectId, m_traces: ids, ...time.params, ...await rm.retention(projectId, 'spans') },
    };
  }
  /** The roots of located traces, within the time ranges they occupy. */
  const rootsOf = (projectId: string, ranges: TraceRange[]) =>
    rootsWhere(projectId, traceIdsParam(ranges.map((r) => r.trace_id)), timeRangesPredicate(ranges, 'm_tr'));
  /** One summary per group over the roots `roots` selects, in one statement, with each group's count of distinct traces. */
  async function summariseRoots(
    roots: { where: string; params: Record<string, unknown> },
    groups: ReadonlyArray<readonly string[]>, specs: ReadonlyArray<readonly TraceMetricSpec[]>,
  ): Promise<StoredSummaries> {
    const none = (computed = false): StoredSummaries => ({ summaries: groups.map(() => ({})), stored: groups.map(() => 0), computed });
    // Every group's specs in one statement; each group keeps its own paths.
    const union = [...new Map(specs.flat().map((x) => [`${x.type} ${x.path}`, x])).values()];
    const parsed = parseSpecs(union);
    if (!parsed.ok) return none();
    // The bucket plan only sizes the answer (one bucket per group): `roots` bounds the scan.
    const plan = { ...planBuckets({ oldestUs: 0, newestUs: 1 }), count: groups.length };
    const scope: Scope = { where: roots.where, params: {} };
    // The group of a trace (a trace in several groups counts in the first).
    const ids: string[] = [];
    const index: number[] = [];
    const seen = new Set<string>();
    groups.forEach((g, i) => { for (const t of g) if (!seen.has(t)) { seen.add(t); ids.push(t); index.push(i); } });
    const planned = planSpecs(parsed.specs);
    const st = buildAnalyticsQuery(rm.roots, scope, plan, planned, {
      groupSql: "transform(trace_id, splitByChar(',', {m_group_ids:String}), arrayMap(x -> toInt64(x), splitByChar(',', {m_group_index:String})), -1)",
      distinctSql: 'trace_id',
    });
    if (!st) return none();
    const rows = await rm.run<Record<string, unknown>>(st.sql, { ...paramValues(st.params), ...roots.params, m_group_ids: ids.join(','), m_group_index: index.join(',') });
    const out = none(true);
    const byGroup = new Map(rows.map((r) => [Number(r.bucket), r]));
    groups.forEach((_, i) => {
      const row = byGroup.get(i);
      if (!row) return;
      out.stored[i] = Number(row.distinct_count ?? 0);
      const own = new Set(specs[i]!.map((x) => x.path));
      const metrics = shapeAnalytics([{ ...row, bucket: i }], plan, planned)[0]?.metrics ?? {};
      out.summaries[i] = Object.fromEntries(Object.entries(metrics).filter(([path]) => own.has(path)));
    });
    return out;
  }
  const subset = (located: LocatedTraces, traceIds: readonly string[]): TraceRange[] => {
    const wanted = new Set(traceIds);
    return located.ranges.filter((r) => wanted.has(r.trace_id) && located.roots.has(r.trace_id));
  };

  return {
    async locate(projectId, traceIds) {
      const ranges = await rm.guard(() => locateTraces(ch, rm.tables, projectId, [...new Set(traceIds)]));
      if (ranges.length === 0) return { projectId, ranges, roots: new Set() };
      // A trace counts once its root span is stored: the summaries read root spans (the trace index
      // is written before the spans and the roots).
      const roots = await rootsOf(projectId, ranges);
      const stored = await rm.run<{ trace_id: string }>(`SELECT DISTINCT trace_id FROM ${rm.roots} WHERE ${roots.where}`, roots.params);
      return { projectId, ranges, roots: new Set(stored.map((r) => r.trace_id)) };
    },

    async outputs(located, groups, limit) {
      const n = Math.max(1, Math.floor(limit));
      const firsts = groups.map((g) => [...new Set(g)].filter((t) => located.roots.has(t)).sort().slice(0, n));
      const ranges = subset(located, firsts.flat());
      if (ranges.length === 0) return groups.map(() => []);
      const roots = await rootsOf(located.projectId, ranges);
      const rows = await rm.run<{ trace_id: string; attributes: string }>(`SELECT trace_id, attributes FROM ${rm.roots} FINAL WHERE ${roots.where} ORDER BY trace_id`, roots.params);
      const byTrace = new Map(rows.map((r) => {
        try { return [r.trace_id, (JSON.parse(r.attributes) as { ag?: { data?: { outputs?: unknown } } }).ag?.data?.outputs] as const; } catch { return [r.trace_id, undefined] as const; }
      }));
      return firsts.map((ids) => ids.map((t) => byTrace.get(t)).filter((o) => o !== undefined));
    },

    async summariseStored(projectId, groups, specs) {
      const ids = traceIdsParam([...new Set(groups.flat())]);
      if (ids === '') return { summaries: groups.map(() => ({})), stored: groups.map(() => 0), computed: true };
      // The time bounds of the traces as scalar subqueries on the trace index: constants by the time
      // the span table is read, so they bound its primary-key range as locate's ranges do.
      const inIndex = `FROM ${ch.database}.${rm.tables.traceIndex} WHERE project_id = {${PROJECT}:String} AND trace_id IN ${traceIdsSql('m_traces')}`;
      const bounds = { sql: `start_time BETWEEN (SELECT min(first_start) ${inIndex}) AND (SELECT max(last_start) ${inIndex})`, params: {} };
      return summariseRoots(await rootsWhere(projectId, ids, bounds), groups, specs);
    },
  };
}
