// Percentiles, inter-percentile ranges and percentile spread coefficients of numeric specs. The
// percentiles themselves are computed by ClickHouse (`quantilesExactInclusive`: exact, linear
// interpolation between closest ranks, i.e. h = (n − 1)·p, as Postgres percentile_cont and numpy's
// default); this module names and combines them.

/** Response key → percentile in percent. */
export const PERCENTILES: ReadonlyArray<readonly [key: string, percent: number]> = [
  ['p00.05', 0.05], ['p00.1', 0.1], ['p00.5', 0.5], ['p01', 1], ['p02.5', 2.5], ['p05', 5], ['p10', 10],
  ['p12.5', 12.5], ['p20', 20], ['p25', 25], ['p30', 30], ['p37.5', 37.5], ['p40', 40], ['p50', 50],
  ['p60', 60], ['p62.5', 62.5], ['p70', 70], ['p75', 75], ['p80', 80], ['p87.5', 87.5], ['p90', 90],
  ['p95', 95], ['p97.5', 97.5], ['p99', 99], ['p99.5', 99.5], ['p99.9', 99.9], ['p99.95', 99.95],
];

/** The levels in (0, 1) as SQL literals (code constants), in PERCENTILES order. */
export const PERCENTILE_LEVELS_SQL = PERCENTILES.map(([, p]) => String(p / 100)).join(', ');

/** Suffix → [low, high] percentile keys; `iqr<suffix>` = high − low, `psc<suffix>` = (high − low) / p50. */
export const SPREADS: ReadonlyArray<readonly [suffix: string, low: string, high: string]> = [
  ['25', 'p37.5', 'p62.5'],
  ['50', 'p25', 'p75'],
  ['75', 'p12.5', 'p87.5'],
  ['80', 'p10', 'p90'],
  ['90', 'p05', 'p95'],
  ['95', 'p02.5', 'p97.5'],
  ['99', 'p00.5', 'p99.5'],
  ['99.9', 'p00.05', 'p99.95'],
];

export interface PercentileStats {
  pcts: Record<string, number>;
  iqrs: Record<string, number>;
  /** Only when the distribution sits on one side of zero and its median is not negligible. */
  pscs?: Record<string, number>;
}

/** The quantile array of one bucket (PERCENTILES order) → pcts, iqrs and, when meaningful, pscs. */
export function percentileStats(quantiles: readonly number[]): PercentileStats {
  if (quantiles.length !== PERCENTILES.length) throw new Error(`expected ${PERCENTILES.length} quantiles, got ${quantiles.length}`);
  const pcts: Record<string, number> = {};
  PERCENTILES.forEach(([key], i) => {
    pcts[key] = quantiles[i]!;
  });
  const at = (k: string): number => pcts[k]!;
  const iqrs: Record<string, number> = {};
  for (const [suffix, lo, hi] of SPREADS) iqrs[`iqr${suffix}`] = at(hi) - at(lo);
  const out: PercentileStats = { pcts, iqrs };
  const p01 = at('p01');
  const p50 = at('p50');
  const p99 = at('p99');
  // A spread relative to the median says something only when the values do not straddle zero and
  // the median is not tiny next to the tails (the reference's rule).
  if (p01 * p99 >= 0 && Math.abs(p50) >= Math.abs(p99) / 100 && Math.abs(p50) >= Math.abs(p01) / 100) {
    const pscs: Record<string, number> = {};
    for (const [suffix, lo, hi] of SPREADS) pscs[`psc${suffix}`] = p50 === 0 ? 0 : (at(hi) - at(lo)) / p50;
    out.pscs = pscs;
  }
  return out;
}
