// Consumer lag per group and topic-partition, read from the broker when Prometheus scrapes. Sources
// (one per Kafka client, see @llm/runtime) say which groups to ask about; figures are cached for
// `cacheMs` so frequent scrapes do not hammer the broker, and a scrape waits at most `timeoutMs` for
// a refresh: with the broker away /metrics still answers at once, with the last figures known and
// their age in `kafka_consumer_group_lag_observed_timestamp_seconds`. A refresh that outlives the
// scrape finishes in the background (one at a time per source) and serves the next scrape.
import { Gauge } from 'prom-client';
import { registry } from './registry.ts';

export interface PartitionLag {
  group: string;
  topic: string;
  partition: number;
  /** Records after the group's committed offset (high watermark − committed). */
  lag: number;
}

export interface LagSource {
  read(): Promise<PartitionLag[]>;
}

export interface LagCollectionOptions {
  /** Figures younger than this are served without asking the broker. */
  cacheMs: number;
  /** Longest a scrape waits for the broker. */
  timeoutMs: number;
}

interface SourceState {
  source: LagSource;
  entries: PartitionLag[];
  /** ms epoch of the last successful read per group (0: never). */
  observedAt: number;
  lastAttempt: number;
  refreshing: Promise<void> | undefined;
}

const sources = new Set<SourceState>();
let options: LagCollectionOptions = { cacheMs: 5_000, timeoutMs: 2_000 };

export function configureLagCollection(o: LagCollectionOptions): void {
  options = o;
}

/** Adds a source; the returned function removes it (and its series). */
export function registerLagSource(source: LagSource): () => void {
  const s: SourceState = { source, entries: [], observedAt: 0, lastAttempt: 0, refreshing: undefined };
  sources.add(s);
  return () => { sources.delete(s); };
}

let round: Promise<void> | undefined;

/** One refresh round shared by the gauges of a scrape: starts the due reads, waits at most timeoutMs. */
function refresh(): Promise<void> {
  round ??= (async () => {
    const now = Date.now();
    for (const s of sources) {
      if (s.refreshing || now - s.lastAttempt < options.cacheMs) continue;
      s.lastAttempt = now;
      s.refreshing = s.source.read()
        .then((entries) => { s.entries = entries; s.observedAt = Date.now(); }, () => undefined)
        .finally(() => { s.refreshing = undefined; });
    }
    const pending = [...sources].flatMap((s) => (s.refreshing ? [s.refreshing] : []));
    if (pending.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(pending),
      new Promise<void>((r) => { timer = setTimeout(r, options.timeoutMs); timer.unref(); }),
    ]);
    clearTimeout(timer);
  })().finally(() => { round = undefined; });
  return round;
}

const lagGauge: Gauge<'group' | 'topic' | 'partition'> = new Gauge({
  name: 'kafka_consumer_group_lag',
  help: 'Records a consumer group has not committed yet, per topic-partition (high watermark minus committed offset), as the broker last reported it.',
  labelNames: ['group', 'topic', 'partition'],
  registers: [registry],
  collect: async () => {
    await refresh();
    lagGauge.reset();
    for (const s of sources) {
      for (const e of s.entries) lagGauge.set({ group: e.group, topic: e.topic, partition: String(e.partition) }, e.lag);
    }
  },
});

const observedGauge: Gauge<'group'> = new Gauge({
  name: 'kafka_consumer_group_lag_observed_timestamp_seconds',
  help: 'When the broker last answered the lag read for a consumer group (unix seconds); old means kafka_consumer_group_lag is stale.',
  labelNames: ['group'],
  registers: [registry],
  collect: async () => {
    await refresh();
    observedGauge.reset();
    for (const s of sources) {
      if (s.observedAt === 0) continue;
      for (const group of new Set(s.entries.map((e) => e.group))) observedGauge.set({ group }, s.observedAt / 1000);
    }
  },
});
