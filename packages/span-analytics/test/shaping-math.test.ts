// The math of the response shapes, on hand-computed cases: percentile keys and spreads, histogram
// layouts and bin edges (edge true and false), frequency ordering and densities.
import { describe, expect, it } from 'vitest';

import { binIndex, binInterval, binaryFrequencies, frequencies, histogramLayout, percentileStats, PERCENTILES, shapeHistogram } from '../src/index.ts';

/** Linear interpolation between closest ranks (h = (n − 1)·p), as ClickHouse's quantilesExactInclusive. */
function linear(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo]!;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)]!;
  return a + (h - lo) * (b - a);
}

describe('percentileStats', () => {
  it('when the quantiles are 1..100 evenly, then iqrs are differences and pscs divide by the median', () => {
    const values = Array.from({ length: 101 }, (_, i) => i); // 0..100: p-th percentile = p
    const q = PERCENTILES.map(([, p]) => linear(values, p / 100));
    const s = percentileStats(q);
    expect(s.pcts.p50).toBeCloseTo(50, 9);
    expect(s.pcts['p12.5']).toBeCloseTo(12.5, 9);
    expect(s.pcts['p00.05']).toBeCloseTo(0.05, 9);
    expect(Object.keys(s.pcts)).toEqual(PERCENTILES.map(([k]) => k));
    expect(s.iqrs.iqr25).toBeCloseTo(25, 9); // p62.5 − p37.5
    expect(s.iqrs.iqr50).toBeCloseTo(50, 9);
    expect(s.iqrs.iqr75).toBeCloseTo(75, 9);
    expect(s.iqrs.iqr80).toBeCloseTo(80, 9);
    expect(s.iqrs.iqr90).toBeCloseTo(90, 9);
    expect(s.iqrs.iqr95).toBeCloseTo(95, 9);
    expect(s.iqrs.iqr99).toBeCloseTo(99, 9);
    expect(s.iqrs['iqr99.9']).toBeCloseTo(99.9, 9);
    // p01 = 1, p99 = 99: same sign, |p50| = 50 ≥ 0.99 → pscs = iqr / 50
    expect(s.pscs?.psc50).toBeCloseTo(1, 9);
    expect(s.pscs?.['psc99.9']).toBeCloseTo(1.998, 9);
  });

  it('when four values 10, 20, 30, 40 are interpolated linearly, then p25 = 17.5 and p99.95 = 39.985', () => {
    const v = [10, 20, 30, 40];
    expect(linear(v, 0.25)).toBeCloseTo(17.5, 9);
    expect(linear(v, 0.9995)).toBeCloseTo(39.985, 9);
  });

  it('when the distribution straddles zero, then there are no pscs', () => {
    const values = Array.from({ length: 101 }, (_, i) => i - 50);
    expect(percentileStats(PERCENTILES.map(([, p]) => linear(values, p / 100))).pscs).toBeUndefined();
  });

  it('when the median is below 1 % of a tail, then there are no pscs', () => {
    const values = [0, 0, 0, 0, 1000];
    expect(percentileStats(PERCENTILES.map(([, p]) => linear(values, p / 100))).pscs).toBeUndefined();
  });

  it('when every value is 0, then pscs are present and 0 (p50 = 0 guards the division)', () => {
    const s = percentileStats(PERCENTILES.map(() => 0));
    expect(s.pscs).toEqual({ psc25: 0, psc50: 0, psc75: 0, psc80: 0, psc90: 0, psc95: 0, psc99: 0, 'psc99.9': 0 });
  });

  it('when the quantile array has the wrong length, then it throws (a programming error)', () => {
    expect(() => percentileStats([1, 2, 3])).toThrow();
  });
});

function histogram(values: number[], opts: { bins?: number; vmin?: number; vmax?: number; edge: boolean }) {
  const layout = histogramLayout(values.length, Math.min(...values), Math.max(...values), opts);
  const counts = new Map<number, number>();
  for (const x of values) {
    const k = binIndex(layout, x);
    if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return { layout, hist: shapeHistogram(layout, counts) };
}

describe('histograms', () => {
  const zeroToTen = Array.from({ length: 11 }, (_, i) => i);

  it('when edge is true, then ⌈√11⌉ = 4 bins of width 2.5 cover [0, 10] and the max lands in the last bin', () => {
    const { hist } = histogram(zeroToTen, { edge: true });
    expect(hist).toEqual([
      { bin: 1, count: 3, interval: [0, 2.5], density: 0.27273 },
      { bin: 2, count: 2, interval: [2.5, 5], density: 0.18182 },
      { bin: 3, count: 3, interval: [5, 7.5], density: 0.27273 },
      { bin: 4, count: 3, interval: [7.5, 10], density: 0.27273 },
    ]);
  });

  it('when edge is false, then bin centres are 0, 10/3, 20/3, 10 and the end bins are half-width', () => {
    const { hist } = histogram(zeroToTen, { edge: false });
    expect(hist.map((h) => h.count)).toEqual([2, 3, 4, 2]); // {0,1} {2,3,4} {5,6,7,8} {9,10}
    const w = 10 / 3;
    expect(hist[0]!.interval).toEqual([0, w / 2]);
    expect(hist[1]!.interval[0]).toBeCloseTo(w / 2, 12);
    expect(hist[1]!.interval[1]).toBeCloseTo(1.5 * w, 12);
    expect(hist[2]!.interval[1]).toBeCloseTo(2.5 * w, 12);
    expect(hist[3]!.interval).toEqual([expect.closeTo(2.5 * w, 12), 10]);
  });

  it('when vmin/vmax and bins are given, then values outside the range are not counted and densities use the counted ones', () => {
    const { hist } = histogram([-5, 0, 1, 2, 3, 4, 50], { bins: 2, vmin: 0, vmax: 4, edge: true });
    expect(hist).toEqual([
      { bin: 1, count: 2, interval: [0, 2], density: 0.4 },
      { bin: 2, count: 3, interval: [2, 4], density: 0.6 },
    ]);
  });

  it('when there is one value, or all values are equal, then there is one bin [min, max]', () => {
    expect(histogram([7], { edge: true }).hist).toEqual([{ bin: 1, count: 1, interval: [7, 7], density: 1 }]);
    expect(histogram([3, 3, 3], { edge: false, bins: 5 }).hist).toEqual([{ bin: 1, count: 3, interval: [3, 3], density: 1 }]);
  });

  it('when a value sits where floating-point division lands one bin off, then it goes to the bin whose interval holds it', () => {
    const layout = histogramLayout(100, 0, 1, { bins: 10, edge: true });
    for (const x of [0.1, 0.2, 0.3, 0.6, 0.7, 0.9, 1, 0.30000000000000004]) {
      const k = binIndex(layout, x)!;
      const [start, end] = binInterval(layout, k);
      expect(x).toBeGreaterThanOrEqual(start);
      if (k < layout.nb - 1) expect(x).toBeLessThan(end);
      else expect(x).toBeLessThanOrEqual(end);
    }
  });

  it('when many random values are binned either way, then every value lies in its bin', () => {
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const values = Array.from({ length: 500 }, () => Math.round(rnd() * 1000) / 7);
    for (const edge of [true, false]) {
      const layout = histogramLayout(values.length, Math.min(...values), Math.max(...values), { edge });
      for (const x of values) {
        const k = binIndex(layout, x)!;
        const [start, end] = binInterval(layout, k);
        expect(x >= start && (k === layout.nb - 1 ? x <= end : x < end)).toBe(true);
      }
    }
  });
});

describe('frequencies', () => {
  it('when counts tie, then values sort ascending; densities round to 5 decimals', () => {
    expect(frequencies([['b', 1], ['c', 2], ['a', 1]])).toEqual({
      freq: [{ value: 'c', count: 2, density: 0.5 }, { value: 'a', count: 1, density: 0.25 }, { value: 'b', count: 1, density: 0.25 }],
      uniq: ['c', 'a', 'b'],
    });
    expect(frequencies([[3, 1], [1, 1], [2, 1]]).freq.map((f) => [f.value, f.density])).toEqual([[1, 0.33333], [2, 0.33333], [3, 0.33333]]);
  });

  it('when numbers tie, then they sort numerically, not as text', () => {
    expect(frequencies([[10, 1], [9, 1], [100, 1]]).uniq).toEqual([9, 10, 100]);
  });

  it('when binary, then true comes first whatever the counts, and a missing side has count 0', () => {
    expect(binaryFrequencies(0, 3)).toEqual({
      freq: [{ value: true, count: 0, density: 0 }, { value: false, count: 3, density: 1 }],
      uniq: [true, false],
    });
    expect(binaryFrequencies(2, 1).freq.map((f) => f.density)).toEqual([0.66667, 0.33333]);
  });
});
