// Frequency tables of discrete, categorical and binary specs: `freq` sorted by count (most frequent
// first), ties by value ascending, with density = count / total rounded to 5 decimals; `uniq` is
// the values in that order.
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

/** Strings compare by UTF-16 code units (locale-independent, stable across machines). */
function compareValues<V extends number | string>(a: V, b: V): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function frequencies<V extends number | string>(pairs: Iterable<readonly [V, number]>): Frequencies<V> {
  const entries = [...pairs].filter(([, c]) => c > 0);
  const total = entries.reduce((s, [, c]) => s + c, 0);
  entries.sort(([va, ca], [vb, cb]) => cb - ca || compareValues(va, vb));
  const freq = entries.map(([value, count]) => ({ value, count, density: total > 0 ? round5(count / total) : 0 }));
  return { freq, uniq: freq.map((f) => f.value) };
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
