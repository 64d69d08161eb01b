// Puts consumer metrics around a Kafka client: every consumer started through it adds its group to
// the lag read at scrape time (high watermark vs the group's committed offset, per topic-partition,
// asked of the broker through the Admin port) until it is stopped, and every batch it hands to its
// projector is measured (records, and the time until the projector resolved it — the write with its
// retries). In a split deployment each process reports the groups it runs, so together they cover
// every group; `npm run ops` reads any group from the broker directly.
import type { Admin, Consumer, IncomingBatch, KafkaClient } from '@llm/kafka';
import { DURATION_BUCKETS_SECONDS, SIZE_BUCKETS, histogram, registerLagSource, type PartitionLag } from '@llm/metrics';

const batchRecords = histogram('projector_batch_records', 'Records per batch a consumer group handed to its projector, per group and topic.', ['group', 'topic'], SIZE_BUCKETS);
const batchDuration = histogram('projector_batch_write_duration_seconds', 'Time a projector took to apply one batch (its writes, with any retries), per group and topic.', ['group', 'topic'], [...DURATION_BUCKETS_SECONDS, 60, 120]);

/** Lag of the given groups on their topics, as the broker has it now. */
export async function readGroupLag(admin: Pick<Admin, 'endOffsets' | 'committedOffsets' | 'startOffsets'>, groups: ReadonlyMap<string, ReadonlySet<string>>): Promise<PartitionLag[]> {
  const out: PartitionLag[] = [];
  const ends = new Map<string, Promise<Map<number, bigint>>>();
  const endOf = (topic: string) => { let e = ends.get(topic); if (!e) ends.set(topic, (e = admin.endOffsets(topic))); return e; };
  await Promise.all([...groups].flatMap(([group, topics]) => [...topics].map(async (topic) => {
    const [end, committed] = await Promise.all([endOf(topic), admin.committedOffsets(group, topic)]);
    // A partition the group never committed counts from the oldest record still kept.
    const start = [...end.keys()].some((p) => !committed.has(p)) ? await admin.startOffsets(topic) : undefined;
    for (const [partition, e] of end) {
      const c = committed.get(partition) ?? start?.get(partition) ?? 0n;
      out.push({ group, topic, partition, lag: e > c ? Number(e - c) : 0 });
    }
  })));
  return out;
}

export function withConsumerMetrics(client: KafkaClient): KafkaClient {
  // group → topics, with how many running consumers hold each group.
  const groups = new Map<string, { topics: Set<string>; holders: number }>();
  let unregister: (() => void) | undefined;
  const source = {
    async read(): Promise<PartitionLag[]> {
      if (groups.size === 0) return [];
      const admin = await client.admin();
      try {
        return await readGroupLag(admin, new Map([...groups].map(([g, v]) => [g, v.topics])));
      } finally {
        await admin.close().catch(() => undefined);
      }
    },
  };
  const hold = (groupId: string, topics: string[]): void => {
    const g = groups.get(groupId) ?? { topics: new Set<string>(), holders: 0 };
    for (const t of topics) g.topics.add(t);
    g.holders++;
    groups.set(groupId, g);
    unregister ??= registerLagSource(source);
  };
  const release = (groupId: string): void => {
    const g = groups.get(groupId);
    if (!g) return;
    if (--g.holders <= 0) groups.delete(groupId);
    if (groups.size === 0 && unregister) { unregister(); unregister = undefined; }
  };
  return {
    admin: () => client.admin(),
    producer: () => client.producer(),
    consumer(opts): Consumer {
      const inner = client.consumer(opts);
      let held = false;
      return {
        ready: () => inner.ready(),
        start(handle) {
          if (!held) { held = true; hold(opts.groupId, opts.topics); }
          return inner.start(async (batch: IncomingBatch) => {
            const labels = { group: opts.groupId, topic: batch.topic };
            batchRecords.observe(labels, batch.records.length);
            const stop = batchDuration.startTimer();
            await handle(batch);
            stop(labels);
          });
        },
        async stop() {
          if (held) { held = false; release(opts.groupId); }
          await inner.stop();
        },
      };
    },
  };
}
