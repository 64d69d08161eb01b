// `ops topics`: every topic of this environment (KAFKA_TOPIC_PREFIX) with its partitions, their
// low and high watermarks, and the records the topic holds (high − low, summed).
import type { Admin } from '@llm/kafka';
import { table, type CommandOutput } from '../command-output.ts';
import type { OpsKafka } from '../ops-kafka.ts';

export interface PartitionWatermarks { partition: number; low: number; high: number }
export interface TopicView { topic: string; partitions: number; records: number; watermarks: PartitionWatermarks[] }

/** The environment's topics, sorted; the cluster's internal ones (`__…`) are never the operator's. */
export async function scopedTopics(ops: OpsKafka): Promise<string[]> {
  return (await ops.admin.listTopics()).filter((t) => !t.startsWith('__') && t.startsWith(ops.prefix)).sort();
}

export async function watermarks(admin: Admin, topic: string): Promise<PartitionWatermarks[]> {
  const [low, high] = await Promise.all([admin.startOffsets(topic), admin.endOffsets(topic)]);
  return [...high].sort(([a], [b]) => a - b).map(([partition, h]) => ({ partition, low: Number(low.get(partition) ?? 0n), high: Number(h) }));
}

export async function topicsCommand(ops: OpsKafka): Promise<CommandOutput> {
  const views: TopicView[] = [];
  for (const topic of await scopedTopics(ops)) {
    const w = await watermarks(ops.admin, topic);
    views.push({ topic, partitions: w.length, records: w.reduce((n, p) => n + p.high - p.low, 0), watermarks: w });
  }
  const text = views.length === 0
    ? `no topics${ops.prefix ? ` with prefix '${ops.prefix}'` : ''}`
    : table(['TOPIC', 'PARTITIONS', 'RECORDS', 'HIGH WATERMARKS (partition:offset)'],
      views.map((v) => [v.topic, v.partitions, v.records, v.watermarks.map((p) => `${p.partition}:${p.high}`).join(' ')]));
  return { json: { prefix: ops.prefix, topics: views }, text };
}
