// Legacy analytics (reference §6.2, POST /tracing/spans/analytics): a fixed schema per bucket,
// `total` and `errors`, each {count, duration, costs, tokens}, every bucket from oldest to newest.
//   - duration: Σ duration_ms of the spans (ms);
//   - costs / tokens: Σ of the `total` component, cumulative for focus trace (a root carries its
//     whole trace), incremental for focus span (so that no trace is counted twice);
//   - errors: the same sums over spans that have an event named `exception` (see HAS_EXCEPTION_EVENT).
//     As in the reference, status_code is not consulted: a span marked STATUS_CODE_ERROR without an
//     exception event is not an error here, and an exception event counts even on a span whose
//     status is OK.
// Every bucket always carries all four numbers (the reference omits sums over no values).
import type { Scope } from './analytics-scope.ts';
import type { Focus } from './analytics-scope.ts';
import type { Statement } from './analytics-query.ts';
import { bucketSql } from './analytics-query.ts';
import { bucketStartUs, type BucketPlan } from './bucket-plan.ts';
import { isoUtc } from './iso-time.ts';
import { ParamBag, qualifiedTable } from './sql-params.ts';

export interface LegacyTotals {
  count: number;
  duration: number;
  costs: number;
  tokens: number;
}

export interface LegacyBucket {
  timestamp: string;
  interval: number;
  total: LegacyTotals;
  errors: LegacyTotals;
}

// "Has an exception event", read from the span's own error count: ingest sets
// `ag.metrics.errors.incremental` (column `errors_incremental`) to the number of events named
// `exception` whenever a span has events. Reading that Float64 column instead of walking the events
// JSON makes a 30-day scan about ten times cheaper; the answers differ only for a span with no events
// at all whose client reported errors.incremental > 0 itself, which then counts as an error too.
const HAS_EXCEPTION_EVENT = 'errors_incremental > 0';

export function buildLegacyQuery(table: string, scope: Scope, plan: BucketPlan, focus: Focus): Statement {
  const bag = new ParamBag();
  // The maps' `total` entries as materialized Float64 columns (migration 0003; a missing key is 0).
  const costs = focus === 'trace' ? 'costs_total_cumulative' : 'costs_total_incremental';
  const tokens = focus === 'trace' ? 'tokens_total_cumulative' : 'tokens_total_incremental';
  const scan = `SELECT ${bucketSql(plan, bag)} AS bucket, duration_ms AS d, ${costs} AS c, ${tokens} AS t, ${HAS_EXCEPTION_EVENT} AS err
    FROM ${qualifiedTable(table)} FINAL WHERE ${scope.where}`;
  const sql = `SELECT bucket,
      count() AS total_count, sum(d) AS total_duration, sum(c) AS total_costs, sum(t) AS total_tokens,
      countIf(err) AS errors_count, sumIf(d, err) AS errors_duration, sumIf(c, err) AS errors_costs, sumIf(t, err) AS errors_tokens
    FROM (${scan}) GROUP BY bucket ORDER BY bucket`;
  return { sql, params: { ...scope.params, ...bag.params } };
}

const ZERO: LegacyTotals = { count: 0, duration: 0, costs: 0, tokens: 0 };

export function shapeLegacy(rows: ReadonlyArray<Readonly<Record<string, unknown>>>, plan: BucketPlan): LegacyBucket[] {
  const byBucket = new Map<number, { total: LegacyTotals; errors: LegacyTotals }>();
  for (const r of rows) {
    const totals = (prefix: string): LegacyTotals => ({
      count: num(r[`${prefix}_count`]),
      duration: num(r[`${prefix}_duration`]),
      costs: num(r[`${prefix}_costs`]),
      tokens: num(r[`${prefix}_tokens`]),
    });
    byBucket.set(num(r.bucket), { total: totals('total'), errors: totals('errors') });
  }
  const out: LegacyBucket[] = [];
  for (let k = 0; k < plan.count; k++) {
    const b = byBucket.get(k);
    out.push({ timestamp: isoUtc(bucketStartUs(plan, k)), interval: plan.intervalS, total: b?.total ?? { ...ZERO }, errors: b?.errors ?? { ...ZERO } });
  }
  return out;
}

function num(x: unknown): number {
  const n = typeof x === 'number' ? x : typeof x === 'string' ? Number(x) : NaN;
  if (!Number.isFinite(n)) throw new Error(`legacy analytics row: not a number (${String(x)})`);
  return n;
}
