// Frequency tables of discrete, categorical and binary specs: `freq` sorted by count (most frequent
// first), ties by value ascending, with density = count / total rounded to 5 decimals; `uniq` is
// the values in that order. A table cut to its most frequent values (analytics-query caps them per
// bucket) keeps densities over the full total and reports what was left out as `other`.
import { round5 } from './histogram.ts';

export interface FreqEntry<V> {
  value: V;
  count: number;
  density: number;
}

export interface Frequencies<V> {
  freq: Array<FreqEntry<V>>;
  uniq: V[];
}

/** The values a capped frequency table left out, together. */
export interface OtherValues {
  /** How many distinct values were left out. */
  values: number;
  count: number;
  density: number;
}

/** Present only when the table was cut: `truncated: true` and the left-out share. */
export interface Truncation {
  truncated?: true;
  other?: OtherValues;
}

/** Strings compare by UTF-16 code units (locale-independent, stable across machines). */
function compareValues<V extends number | string>(a: V, b: V): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `cut` describes a table that holds only the most frequent values: the number of distinct values
 * and the total count before the cut. Densities are then over that total, and the rest is `other`.
 */
export function frequencies<V extends number | string>(
  pairs: Iterable<readonly [V, number]>, cut?: { distinct: number; total: number },
): Frequencies<V> & Truncation {
  const entries = [...pairs].filter(([, c]) => c > 0);
  const kept = entries.reduce((s, [, c]) => s + c, 0);
  const truncated = cut !== undefined && cut.distinct > entries.length;
  const total = truncated ? Math.max(cut.total, kept) : kept;
  entries.sort(([va, ca], [vb, cb]) => cb - ca || compareValues(va, vb));
  const density = (c: number): number => (total > 0 ? round5(c / total) : 0);
  const freq = entries.map(([value, count]) => ({ value, count, density: density(count) }));
  const out = { freq, uniq: freq.map((f) => f.value) };
  if (!truncated) return out;
  return { ...out, truncated: true, other: { values: cut.distinct - entries.length, count: total - kept, density: density(total - kept) } };
}

/** Binary specs list both values, `true` first, whatever their counts (as the reference does). */
export function binaryFrequencies(trueCount: number, falseCount: number): Frequencies<boolean> {
  const total = trueCount + falseCount;
  const density = (c: number): number => (total > 0 ? round5(c / total) : 0);
  return {
    freq: [
      { value: true, count: trueCount, density: density(trueCount) },
      { value: false, count: falseCount, density: density(falseCount) },
    ],
    uniq: [true, false],
  };
}
