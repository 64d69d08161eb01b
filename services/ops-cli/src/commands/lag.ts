// `ops lag [--group G]`: for every consumer group (or one), per topic-partition it committed to in
// this environment, the committed offset against the high watermark. A partition the group never
// committed counts from the log start, where a group reading from the beginning would start.
import { table, type CommandOutput } from '../command-output.ts';
import { OpsFailure } from '../ops-errors.ts';
import type { OpsKafka } from '../ops-kafka.ts';
import { scopedTopics, watermarks, type PartitionWatermarks } from './topics.ts';

export interface PartitionLag { partition: number; committed: number | null; high: number; lag: number }
export interface TopicLag { topic: string; lag: number; partitions: PartitionLag[] }
export interface GroupLag { group: string; lag: number; topics: TopicLag[] }

export async function lagCommand(ops: OpsKafka, group: string | undefined): Promise<CommandOutput> {
  const inScope = new Set(await scopedTopics(ops));
  const groups = group !== undefined ? [group] : (await ops.admin.listGroups()).sort();
  const marks = new Map<string, PartitionWatermarks[]>();
  const result: GroupLag[] = [];
  for (const g of groups) {
    const committed = await ops.admin.groupOffsets(g);
    const topics: TopicLag[] = [];
    for (const [topic, offsets] of [...committed].sort(([a], [b]) => a.localeCompare(b))) {
      if (!inScope.has(topic)) continue;
      let w = marks.get(topic);
      if (!w) marks.set(topic, (w = await watermarks(ops.admin, topic)));
      const partitions = w.map((p): PartitionLag => {
        const c = offsets.get(p.partition);
        return { partition: p.partition, committed: c === undefined ? null : Number(c), high: p.high, lag: Math.max(0, p.high - (c === undefined ? p.low : Number(c))) };
      });
      topics.push({ topic, lag: partitions.reduce((n, p) => n + p.lag, 0), partitions });
    }
    if (topics.length) result.push({ group: g, lag: topics.reduce((n, t) => n + t.lag, 0), topics });
  }
  if (group !== undefined && result.length === 0) {
    throw new OpsFailure('group_not_found', `consumer group '${group}' has no committed offsets${ops.prefix ? ` on topics with prefix '${ops.prefix}'` : ''}`);
  }
  const rows = result.flatMap((g) => g.topics.flatMap((t) => t.partitions.map((p) => [g.group, t.topic, p.partition, p.committed ?? '-', p.high, p.lag])));
  const text = rows.length === 0 ? 'no consumer group has committed offsets' : table(['GROUP', 'TOPIC', 'PARTITION', 'COMMITTED', 'HIGH', 'LAG'], rows);
  return { json: { prefix: ops.prefix, groups: result }, text };
}
