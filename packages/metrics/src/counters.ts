// The original API of this package — an unlabelled counter and a gauge read at scrape time — kept for
// its many call sites, now on prom-client. Names are registered once per process; asking again for
// the same name returns the same series (modules re-created by tests, projectors made twice).
import { Counter, Gauge } from 'prom-client';
import { registry } from './registry.ts';

const counters = new Map<string, Counter>();

export function counter(name: string, help: string): (n?: number) => void {
  let c = counters.get(name);
  if (!c) {
    c = new Counter({ name, help, registers: [registry] });
    counters.set(name, c);
  }
  const series = c;
  return (n = 1) => { series.inc(n); };
}

const gaugeReads = new Map<string, () => number>();

/** A value read when /metrics is rendered (the last registration of a name wins). */
export function gauge(name: string, help: string, read: () => number): void {
  if (!gaugeReads.has(name)) {
    const g: Gauge = new Gauge({
      name, help, registers: [registry],
      collect: () => {
        const v = gaugeReads.get(name)?.() ?? 0;
        g.set(Number.isFinite(v) ? v : 0);
      },
    });
  }
  gaugeReads.set(name, read);
}
