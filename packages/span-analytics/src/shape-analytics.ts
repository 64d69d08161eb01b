// Rows of the analytics statement → the response's buckets (reference §6.1 shapes). Buckets come
// out chronologically; a bucket appears only when some spec has a value in it, and its `metrics`
// lists only the specs that have (as in the reference).
import { bucketStartUs, type BucketPlan } from './bucket-plan.ts';
import { binaryFrequencies, frequencies, type FreqEntry, type Truncation } from './frequencies.ts';
import { histogramLayout, shapeHistogram, type HistogramBin } from './histogram.ts';
import { isoUtc } from './iso-time.ts';
import { percentileStats } from './percentiles.ts';
import type { PlannedSpec } from './planned-spec.ts';

interface NumericSummary {
  count: number;
  sum: number;
  mean: number;
  min: number;
  max: number;
  range: number;
  pcts: Record<string, number>;
  iqrs: Record<string, number>;
  pscs?: Record<string, number>;
}

export type ContinuousMetric = { type: 'numeric/continuous' } & NumericSummary & { hist: HistogramBin[] };
/** `freq`/`uniq` hold at most MAX_DISTINCT_VALUES values per bucket; a cut one says `truncated: true`
 * and sums the rest in `other` (densities stay over the full count). */
export type DiscreteMetric = { type: 'numeric/discrete' } & NumericSummary & { freq: Array<FreqEntry<number>>; uniq: number[] } & Truncation;
export interface CategoricalMetric extends Truncation {
  type: 'categorical/single' | 'categorical/multiple';
  count: number;
  freq: Array<FreqEntry<string>>;
  uniq: string[];
}
export interface BinaryMetric {
  type: 'binary';
  count: number;
  freq: Array<FreqEntry<boolean>>;
  uniq: boolean[];
}
export interface CountMetric {
  type: 'string' | 'json';
  count: number;
}
export type Metric = ContinuousMetric | DiscreteMetric | CategoricalMetric | BinaryMetric | CountMetric;

export interface AnalyticsBucket {
  /** Start of the bucket, ISO-8601 UTC. */
  timestamp: string;
  /** Width of the bucket in seconds (the width actually used, after any widening). */
  interval: number;
  /** Keyed by spec path (`attributes.<path>`). */
  metrics: Record<string, Metric>;
}

type Row = Readonly<Record<string, unknown>>;

export function shapeAnalytics(rows: readonly Row[], plan: BucketPlan, specs: readonly PlannedSpec[]): AnalyticsBucket[] {
  const out: AnalyticsBucket[] = [];
  for (const row of rows) {
    const k = num(row.bucket, 'bucket');
    if (k < 0 || k >= plan.count) continue; // cannot happen with the scope's window; never misplace a value
    const metrics: Record<string, Metric> = {};
    specs.forEach((p, i) => {
      const m = p.type === undefined ? undefined : metricOf(p, i, row);
      if (m !== undefined) metrics[p.spec.path] = m;
    });
    if (Object.keys(metrics).length > 0) out.push({ timestamp: isoUtc(bucketStartUs(plan, k)), interval: plan.intervalS, metrics });
  }
  return out;
}

function metricOf(p: PlannedSpec, i: number, row: Row): Metric | undefined {
  const col = (field: string): unknown => row[`s${i}_${field}`];
  switch (p.type) {
    case undefined:
      return undefined;
    case 'numeric/continuous': {
      const s = numericSummary(col);
      if (s === undefined) return undefined;
      const layout = histogramLayout(s.count, s.min, s.max, p.spec);
      const counts = new Map(countMap(col('bins'), 'bins').map(([k, c]) => [num(k, 'bin'), c]));
      return { type: p.type, ...s, hist: shapeHistogram(layout, counts) };
    }
    case 'numeric/discrete': {
      const s = numericSummary(col);
      if (s === undefined) return undefined;
      const f = frequencies(countMap(col('freq'), 'freq').map(([v, c]) => [num(v, 'freq value'), c] as const), cutOf(col, s.count));
      return { type: p.type, ...s, ...f };
    }
    case 'categorical/single':
    case 'categorical/multiple': {
      const count = num(col('count'), 'count');
      if (count === 0) return undefined;
      const f = frequencies(countMap(col('freq'), 'freq').map(([v, c]) => [String(v), c] as const), cutOf(col, count));
      return { type: p.type, count, ...f };
    }
    case 'binary': {
      const t = num(col('true'), 'true');
      const f = num(col('false'), 'false');
      if (t + f === 0) return undefined;
      return { type: p.type, count: t + f, ...binaryFrequencies(t, f) };
    }
    case 'string':
    case 'json': {
      const count = num(col('count'), 'count');
      return count === 0 ? undefined : { type: p.type, count };
    }
  }
}

function numericSummary(col: (field: string) => unknown): NumericSummary | undefined {
  const count = num(col('count'), 'count');
  if (count === 0) return undefined;
  const sum = num(col('sum'), 'sum');
  const min = num(col('min'), 'min');
  const max = num(col('max'), 'max');
  const q = col('pcts');
  if (!Array.isArray(q)) throw new Error('analytics row: pcts is not an array');
  return { count, sum, mean: sum / count, min, max, range: max - min, ...percentileStats(q.map((x) => num(x, 'percentile'))) };
}

/** The map's size before the statement capped it (`s<i>_distinct`; absent in rows built without a cap). */
function cutOf(col: (field: string) => unknown, total: number): { distinct: number; total: number } | undefined {
  const d = col('distinct');
  return d === undefined ? undefined : { distinct: num(d, 'distinct'), total };
}

/** A ClickHouse number as JSON gives it (64-bit integers may come quoted). */
function num(x: unknown, what: string): number {
  const n = typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : NaN;
  if (!Number.isFinite(n)) throw new Error(`analytics row: ${what} is not a number (${String(x)})`);
  return n;
}

/** `sumMap` output `[[keys], [counts]]` (or a tuple object) → [key, count] pairs. */
function countMap(x: unknown, what: string): Array<[unknown, number]> {
  const parts = Array.isArray(x) ? x : x !== null && typeof x === 'object' ? Object.values(x) : undefined;
  const [keys, counts] = parts ?? [];
  if (!Array.isArray(keys) || !Array.isArray(counts) || keys.length !== counts.length) throw new Error(`analytics row: ${what} is not a count map`);
  return keys.map((k, j) => [k, num(counts[j], what)]);
}
