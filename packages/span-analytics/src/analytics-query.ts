// Spec-driven analytics as ONE ClickHouse statement: a single scan of the window, every spec
// aggregated per bucket in the same GROUP BY. Levels, innermost first:
//   1. scan:   the bucket of each span (by start_time, aligned to oldest) and each spec's raw value;
//   2. views:  the raw value as its type sees it (NULL when the JSON type does not match);
//   3. window: for histograms, each bucket's value count and range next to every row, then the
//      histogram layout (range, bin count, width, raw bin) per row;
//   4. aggregate per bucket: counts, sums, exact percentiles, and compact maps — value → count for
//      frequencies, bin → count for histograms — so that no per-row data leaves the database;
//   5. cap each frequency map at the `maxDistinct` most frequent values (count desc, value asc), with
//      the number of distinct values beside it, so a high-cardinality path cannot fill the response
//      (and this process) with millions of values; shape-analytics marks a cut metric `truncated`.
// Column names of the result (read by shape-analytics.ts): `bucket`, then `s<i>_<field>` per spec.
import type { SqlParams } from '@llm/span-filter';

import type { Scope } from './analytics-scope.ts';
import type { BucketPlan } from './bucket-plan.ts';
import { binIndexSql, histogramLayoutSql, type HistogramColumns } from './histogram.ts';
import { MAX_DISTINCT_VALUES } from './limits.ts';
import { PERCENTILE_LEVELS_SQL } from './percentiles.ts';
import type { PlannedSpec } from './planned-spec.ts';
import { ParamBag, qualifiedTable } from './sql-params.ts';
import { rawSql, viewSql } from './value-sql.ts';

export interface Statement {
  sql: string;
  params: SqlParams;
}

/** The bucket index of a span: ⌊(start_time − oldest) / width⌋ (the scope keeps start_time ≥ oldest). */
export function bucketSql(plan: BucketPlan, bag: ParamBag): string {
  return `intDiv(toUnixTimestamp64Micro(start_time) - ${bag.ref('origin', 'Int64', plan.oldestUs)}, ${bag.ref('width', 'Int64', plan.widthUs)})`;
}

/** Count-per-key map of a nullable scalar: `([keys], [counts])`. */
const countMapOf = (v: string): string => `sumMap(if(isNull(${v}), [], [assumeNotNull(${v})]), if(isNull(${v}), [], [toUInt64(1)]))`;

/**
 * A full value → count map (`<s>_fm`) cut to the `cap` most frequent values as `<s>_freq`, plus
 * `<s>_distinct`. The keys of a sumMap are distinct, so both sorts order by the same total key and
 * keep keys and counts aligned.
 */
function cappedFreq(s: string, cap: string): string[] {
  const keys = `tupleElement(${s}_fm, 1)`;
  const counts = `tupleElement(${s}_fm, 2)`;
  const order = '(-toInt64(c), k)';
  return [
    `(arraySlice(arraySort((k, c) -> ${order}, ${keys}, ${counts}), 1, ${cap}), arraySlice(arraySort((c, k) -> ${order}, ${counts}, ${keys}), 1, ${cap})) AS ${s}_freq`,
    `length(${keys}) AS ${s}_distinct`,
  ];
}

export interface AnalyticsQueryOptions {
  /** Most values one frequency map returns per bucket and spec (default MAX_DISTINCT_VALUES). */
  maxDistinct?: number;
  /**
   * Groups by this expression instead of the time bucket (an integer in [0, plan.count)): e.g. an
   * evaluation run's step of each trace, so the steps of a metrics refresh are one statement.
   */
  groupSql?: string;
  /** Also counts, per bucket, the distinct values of this expression (as `distinct_count`): e.g. the traces a summary saw. */
  distinctSql?: string;
}

/**
 * The statement, or undefined when no spec computes anything (the response then has no buckets).
 * `table` is `db.spans`; `scope` comes from compileScope.
 */
export function buildAnalyticsQuery(
  table: string, scope: Scope, plan: BucketPlan, specs: readonly PlannedSpec[], options: AnalyticsQueryOptions = {},
): Statement | undefined {
  const active = specs.map((p, i) => ({ ...p, i })).filter((p) => p.type !== undefined);
  if (active.length === 0) return undefined;
  const bag = new ParamBag();
  const maxDistinct = options.maxDistinct ?? MAX_DISTINCT_VALUES;
  if (!Number.isInteger(maxDistinct) || maxDistinct < 1) throw new Error(`maxDistinct must be a positive integer (${maxDistinct})`);
  const freqs: string[] = [];
  const raws: string[] = [`${options.groupSql ?? bucketSql(plan, bag)} AS bucket`];
  const views: string[] = ['bucket'];
  const windows: string[] = [];
  const layouts: string[] = [];
  const aggregates: string[] = ['bucket'];
  if (options.distinctSql !== undefined) {
    raws.push(`${options.distinctSql} AS distinct_key`);
    views.push('distinct_key');
    aggregates.push('uniqExact(distinct_key) AS distinct_count');
  }
  for (const { source, type, spec, i } of active) {
    const r = `r${i}`;
    const v = `v${i}`;
    raws.push(`${rawSql(source, i, bag)} AS ${r}`);
    views.push(`${viewSql(type!, source, r)} AS ${v}`);
    const s = `s${i}`;
    switch (type) {
      case 'numeric/continuous':
      case 'numeric/discrete': {
        aggregates.push(
          `count(${v}) AS ${s}_count`,
          `sum(${v}) AS ${s}_sum`,
          `min(${v}) AS ${s}_min`,
          `max(${v}) AS ${s}_max`,
          `quantilesExactInclusive(${PERCENTILE_LEVELS_SQL})(${v}) AS ${s}_pcts`,
        );
        if (type === 'numeric/discrete') {
          aggregates.push(`${countMapOf(v)} AS ${s}_fm`);
          freqs.push(s);
          break;
        }
        // The histogram needs the bucket's value count and range before any value can be binned.
        windows.push(`count(${v}) OVER w AS n${i}`, `min(${v}) OVER w AS wlo${i}`, `max(${v}) OVER w AS whi${i}`);
        const cols: HistogramColumns = { v, lo: `lo${i}`, hi: `hi${i}`, nb: `nb${i}`, w: `bw${i}`, k: `k${i}` };
        layouts.push(...histogramLayoutSql(cols, {
          n: `n${i}`,
          lo: spec.vmin !== undefined ? bag.ref(`s${i}_vmin`, 'Float64', spec.vmin) : `wlo${i}`,
          hi: spec.vmax !== undefined ? bag.ref(`s${i}_vmax`, 'Float64', spec.vmax) : `whi${i}`,
          bins: spec.bins !== undefined ? bag.ref(`s${i}_bins`, 'UInt32', spec.bins) : `ceil(sqrt(n${i}))`,
        }, spec.edge));
        aggregates.push(`${countMapOf(binIndexSql(cols, spec.edge))} AS ${s}_bins`);
        break;
      }
      case 'binary':
        aggregates.push(`countIf(${v} = 1) AS ${s}_true`, `countIf(${v} = 0) AS ${s}_false`);
        break;
      case 'categorical/single':
        aggregates.push(`count(${v}) AS ${s}_count`, `${countMapOf(v)} AS ${s}_fm`);
        freqs.push(s);
        break;
      case 'categorical/multiple':
        aggregates.push(`sum(length(${v})) AS ${s}_count`, `sumMap(${v}, arrayMap(e -> toUInt64(1), ${v})) AS ${s}_fm`);
        freqs.push(s);
        break;
      case 'string':
        aggregates.push(`count(${v}) AS ${s}_count`);
        break;
      case 'json':
        aggregates.push(`sum(${v}) AS ${s}_count`);
        break;
    }
  }
  const scan = `SELECT ${raws.join(', ')} FROM ${qualifiedTable(table)} FINAL WHERE ${scope.where}`;
  const typed = `SELECT ${views.join(', ')} FROM (${scan})`;
  const binned = windows.length === 0
    ? typed
    : `SELECT *, ${layouts.join(', ')} FROM (SELECT *, ${windows.join(', ')} FROM (${typed}) WINDOW w AS (PARTITION BY bucket))`;
  const grouped = `SELECT ${aggregates.join(', ')} FROM (${binned}) GROUP BY bucket`;
  let sql: string;
  if (freqs.length === 0) sql = `${grouped} ORDER BY bucket`;
  else {
    const cap = bag.ref('max_distinct', 'UInt64', maxDistinct);
    sql = `SELECT * EXCEPT (${freqs.map((s) => `${s}_fm`).join(', ')}), ${freqs.flatMap((s) => cappedFreq(s, cap)).join(', ')}
      FROM (${grouped}) ORDER BY bucket`;
  }
  return { sql, params: { ...scope.params, ...bag.params } };
}
