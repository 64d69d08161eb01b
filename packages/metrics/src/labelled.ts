// Labelled counters and histograms. Label values must come from small fixed sets (a route id, a
// status code, a consumer group) — never from request data such as a raw URL, which would make one
// series per distinct value.
import { Counter, Histogram } from 'prom-client';
import { registry } from './registry.ts';

export type LabelValues<L extends string> = Record<L, string | number>;

export interface LabelledCounter<L extends string> {
  inc(labels: LabelValues<L>, n?: number): void;
}

export interface LabelledHistogram<L extends string> {
  observe(labels: LabelValues<L>, value: number): void;
  /** Starts a clock; the returned function observes the seconds elapsed with the labels given then. */
  startTimer(): (labels: LabelValues<L>) => number;
}

/** Seconds: from a fast in-memory answer to a slow read-model query. */
export const DURATION_BUCKETS_SECONDS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Records per batch, up to the consumers' and producer's batch limits. */
export const SIZE_BUCKETS: readonly number[] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000];

const metrics = new Map<string, Counter | Histogram>();

function existing<T extends Counter | Histogram>(name: string, kind: new (...args: never[]) => T, labelNames: readonly string[]): T | undefined {
  const m = metrics.get(name);
  if (!m) return undefined;
  if (!(m instanceof kind)) throw new Error(`metric ${name} is already registered with another type`);
  const known = (m as unknown as { labelNames: string[] }).labelNames;
  if (known.join(',') !== labelNames.join(',')) throw new Error(`metric ${name} is already registered with labels ${known.join(',')}`);
  return m;
}

export function labelledCounter<L extends string>(name: string, help: string, labelNames: readonly L[]): LabelledCounter<L> {
  let c = existing(name, Counter, labelNames);
  if (!c) {
    c = new Counter({ name, help, labelNames: [...labelNames], registers: [registry] });
    metrics.set(name, c);
  }
  const series = c;
  return { inc: (labels, n = 1) => { series.inc(labels, n); } };
}

export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: readonly number[]): LabelledHistogram<L> {
  let h = existing(name, Histogram, labelNames);
  if (!h) {
    h = new Histogram({ name, help, labelNames: [...labelNames], buckets: [...buckets], registers: [registry] });
    metrics.set(name, h);
  }
  const series = h;
  return {
    observe: (labels, value) => { series.observe(labels, value); },
    startTimer: () => {
      const start = process.hrtime.bigint();
      return (labels) => {
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        series.observe(labels, seconds);
        return seconds;
      };
    },
  };
}
