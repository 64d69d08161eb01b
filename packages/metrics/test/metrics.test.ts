// The metrics package on prom-client: the original counter/gauge API renders as before, labelled
// metrics and histograms render in the Prometheus text format, and the consumer-lag gauges serve
// cached figures without waiting on a source that does not answer.
import { describe, expect, it } from 'vitest';
import { METRICS_CONTENT_TYPE, configureLagCollection, counter, gauge, histogram, labelledCounter, registerLagSource, renderMetrics } from '../src/index.ts';

const value = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('metrics', () => {
  it('given a counter asked for twice under one name, when both increment, then one series carries the sum', async () => {
    const a = counter('unit_things_total', 'Things.');
    const b = counter('unit_things_total', 'Things.');
    a(); b(2);
    const text = await renderMetrics();
    expect(text).toContain('# TYPE unit_things_total counter');
    expect(value(text, 'unit_things_total')).toBe(3);
  });

  it('given a gauge registered twice, when rendered, then the last reader wins and a non-finite value renders 0', async () => {
    gauge('unit_level', 'Level.', () => 1);
    gauge('unit_level', 'Level.', () => 7);
    expect(value(await renderMetrics(), 'unit_level')).toBe(7);
    gauge('unit_level', 'Level.', () => Number.NaN);
    expect(value(await renderMetrics(), 'unit_level')).toBe(0);
  });

  it('when a labelled counter and a histogram are used, then their series carry the labels and buckets', async () => {
    labelledCounter('unit_refused_total', 'Refused.', ['reason']).inc({ reason: 'quota' }, 4);
    const h = histogram('unit_duration_seconds', 'Duration.', ['route'], [0.1, 1]);
    h.observe({ route: 'traces.query' }, 0.5);
    const stop = h.startTimer();
    const elapsed = stop({ route: 'traces.query' });
    const text = await renderMetrics();
    // What the timer returns is what it recorded: the sum is the first observation plus it.
    expect(value(text, 'unit_duration_seconds_sum{route="traces.query"}')).toBeCloseTo(0.5 + elapsed, 9);
    expect(value(text, 'unit_refused_total{reason="quota"}')).toBe(4);
    expect(value(text, 'unit_duration_seconds_bucket{le="1",route="traces.query"}')).toBe(2);
    expect(value(text, 'unit_duration_seconds_count{route="traces.query"}')).toBe(2);
    expect(() => labelledCounter('unit_refused_total', 'Refused.', ['other'])).toThrow(/labels/);
  });

  it('then process metrics are there under their standard names, and the content type is Prometheus text 0.0.4', async () => {
    const text = await renderMetrics();
    for (const name of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(METRICS_CONTENT_TYPE).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('given a lag source, when scraped twice within the cache time, then the broker is asked once and each partition has its series', async () => {
    configureLagCollection({ cacheMs: 60_000, timeoutMs: 1_000 });
    let reads = 0;
    const unregister = registerLagSource({ read: async () => { reads++; return [{ group: 'g.unit', topic: 't', partition: 0, lag: 5 }, { group: 'g.unit', topic: 't', partition: 1, lag: 0 }]; } });
    try {
      const first = await renderMetrics();
      const second = await renderMetrics();
      expect(reads).toBe(1);
      for (const text of [first, second]) {
        expect(value(text, 'kafka_consumer_group_lag{group="g.unit",topic="t",partition="0"}')).toBe(5);
        expect(value(text, 'kafka_consumer_group_lag{group="g.unit",topic="t",partition="1"}')).toBe(0);
        expect(value(text, 'kafka_consumer_group_lag_observed_timestamp_seconds{group="g.unit"}')).toBeGreaterThan(Date.now() / 1000 - 60);
      }
    } finally {
      unregister();
    }
    expect(await renderMetrics()).not.toContain('group="g.unit"');
  });

  it('given a source that never answers (broker down), when scraped, then the scrape returns within the time box with the last figures', async () => {
    configureLagCollection({ cacheMs: 0, timeoutMs: 200 });
    let answer = true;
    const unregister = registerLagSource({
      read: () => (answer ? Promise.resolve([{ group: 'g.hang', topic: 't', partition: 0, lag: 3 }]) : new Promise<never>(() => undefined)),
    });
    try {
      expect(value(await renderMetrics(), 'kafka_consumer_group_lag{group="g.hang",topic="t",partition="0"}')).toBe(3);
      answer = false;
      // The source never settles: a scrape waiting on it would never return (this test would time out).
      const text = await renderMetrics();
      expect(value(text, 'kafka_consumer_group_lag{group="g.hang",topic="t",partition="0"}')).toBe(3);
    } finally {
      unregister();
      configureLagCollection({ cacheMs: 5_000, timeoutMs: 2_000 });
    }
  });
});
