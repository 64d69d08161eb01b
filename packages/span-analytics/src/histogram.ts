// Histograms of numeric/continuous specs (reference §6.1). Per bucket: n values, range [lo, hi] =
// vmin/vmax or the data's min/max, nb bins = `bins` or ⌈√n⌉ (1 when n ≤ 1 or lo = hi).
//   edge = true:  width w = (hi − lo)/nb, bin k = [lo + k·w, lo + (k+1)·w).
//   edge = false: width w = (hi − lo)/(nb − 1), bin k is centred on lo + k·w: [c − w/2, c + w/2).
// In both, the first bin starts at lo and the last ends at hi (inclusive); values outside [lo, hi]
// are not counted. ClickHouse assigns each value its bin (binIndexSql) and counts per bin; the
// intervals are computed here with the same floating-point expressions, and binIndex() is the same
// rule in TypeScript, so the reported intervals always contain the values counted in them.

export interface HistogramLayout {
  lo: number;
  hi: number;
  /** Number of bins (≥ 1). */
  nb: number;
  edge: boolean;
}

export interface HistogramBin {
  /** 1-based. */
  bin: number;
  count: number;
  interval: [start: number, end: number];
  /** count / (values counted in the histogram), 5 decimals. */
  density: number;
}

export interface HistogramOptions {
  bins?: number;
  vmin?: number;
  vmax?: number;
  edge: boolean;
}

/** The layout of one bucket's histogram from its value count and data range. */
export function histogramLayout(n: number, dataMin: number, dataMax: number, opts: HistogramOptions): HistogramLayout {
  const lo = opts.vmin ?? dataMin;
  const hi = opts.vmax ?? dataMax;
  const nb = n <= 1 || lo === hi ? 1 : (opts.bins ?? Math.ceil(Math.sqrt(n)));
  return { lo, hi, nb, edge: opts.edge };
}

function width(l: HistogramLayout): number {
  if (l.nb === 1) return 1; // unused: a single bin is [lo, hi]
  return l.edge ? (l.hi - l.lo) / l.nb : (l.hi - l.lo) / (l.nb - 1);
}

/** [start, end] of bin k (0-based). */
export function binInterval(l: HistogramLayout, k: number): [number, number] {
  const w = width(l);
  const start = k === 0 ? l.lo : l.edge ? l.lo + k * w : l.lo + k * w - w / 2;
  const end = k === l.nb - 1 ? l.hi : l.edge ? l.lo + (k + 1) * w : l.lo + k * w + w / 2;
  return [start, end];
}

/** The 0-based bin of `x`, or undefined when x is outside [lo, hi]. Mirrors binIndexSql exactly. */
export function binIndex(l: HistogramLayout, x: number): number | undefined {
  if (!(x >= l.lo && x <= l.hi)) return undefined;
  const w = width(l);
  const raw = Math.floor((x - l.lo) / w + (l.edge ? 0 : 0.5));
  const k = Math.min(Math.max(raw, 0), l.nb - 1);
  // The division can land one bin off near an edge; settle on the interval the response reports.
  const [start, end] = binInterval(l, k);
  if (k > 0 && x < start) return k - 1;
  if (k < l.nb - 1 && x >= end) return k + 1;
  return k;
}

/** Column aliases of one spec's histogram columns in the generated statement. */
export interface HistogramColumns {
  /** The value, Nullable(Float64). */
  v: string;
  lo: string;
  hi: string;
  /** Bin count as Float64, so that every division and product is the same IEEE operation as in JS. */
  nb: string;
  /** Bin width. */
  w: string;
  /** The bin before settling (clamped floor). */
  k: string;
}

/**
 * The per-row layout columns (`expr AS alias`), from the bucket's value count `n` and the SQL of
 * lo, hi and the requested bin count. Aliases may refer to each other within one SELECT.
 */
export function histogramLayoutSql(c: HistogramColumns, src: { n: string; lo: string; hi: string; bins: string }, edge: boolean): string[] {
  return [
    `${src.lo} AS ${c.lo}`,
    `${src.hi} AS ${c.hi}`,
    `toFloat64(if(${src.n} <= 1 OR ${c.lo} = ${c.hi}, 1, ${src.bins})) AS ${c.nb}`,
    `if(${c.nb} = 1, 1., (${c.hi} - ${c.lo}) / ${edge ? c.nb : `(${c.nb} - 1)`}) AS ${c.w}`,
    // Clamped as a float before the integer cast: toInt64 of an out-of-range float is undefined.
    `toInt64(least(greatest(floor((${c.v} - ${c.lo}) / ${c.w}${edge ? '' : ' + 0.5'}), 0), ${c.nb} - 1)) AS ${c.k}`,
  ];
}

/** The settled 0-based bin of the row (binIndex in SQL); NULL when v is NULL or outside [lo, hi]. */
export function binIndexSql(c: HistogramColumns, edge: boolean): string {
  const { v, lo, hi, nb, w, k } = c;
  const start = edge ? `${lo} + ${k} * ${w}` : `${lo} + ${k} * ${w} - ${w} / 2`;
  const end = edge ? `${lo} + (${k} + 1) * ${w}` : `${lo} + ${k} * ${w} + ${w} / 2`;
  const settled = `multiIf(${k} > 0 AND ${v} < ${start}, ${k} - 1, ${k} < ${nb} - 1 AND ${v} >= ${end}, ${k} + 1, ${k})`;
  return `if(${v} >= ${lo} AND ${v} <= ${hi}, ${settled}, NULL)`;
}

/** Every bin of one bucket's histogram, empty ones included, from the sparse counts per 0-based bin. */
export function shapeHistogram(l: HistogramLayout, counts: ReadonlyMap<number, number>): HistogramBin[] {
  let total = 0;
  for (const [k, c] of counts) if (k >= 0 && k < l.nb) total += c;
  const out: HistogramBin[] = [];
  for (let k = 0; k < l.nb; k++) {
    const count = counts.get(k) ?? 0;
    out.push({ bin: k + 1, count, interval: binInterval(l, k), density: total > 0 ? round5(count / total) : 0 });
  }
  return out;
}

export function round5(x: number): number {
  return Math.round(x * 1e5) / 1e5;
}
