// Re-drive: after a fix, the records a projector set aside in `<topic>.dlq` are appended again to
// their origin topic, with their original key and bytes, so the projector applies them like any
// other record. Progress is the consumer group `redrive.<dlq topic>`: a second run continues where
// the first stopped, and records dead-lettered again during the run (they would fail again) are
// left for the next run rather than looped over.
import { deadLetterRecord } from './dead-letter.ts';
import type { KafkaClient, Producer } from './ports.ts';

export interface RedriveOptions {
  kafka: KafkaClient;
  producer: Producer;
  /** The origin topic, e.g. `tracing.spans.v1`; its dead letters are `<topic>.dlq`. */
  topic: string;
  dlqTopic: string;
  onProgress?: (done: number, total: number) => void;
}

export interface RedriveResult { redriven: number; skipped: number; total: number }

export async function redriveDeadLetters(o: RedriveOptions): Promise<RedriveResult> {
  const groupId = `redrive.${o.dlqTopic}`;
  const admin = await o.kafka.admin();
  let end: Map<number, bigint>;
  let from: Map<number, bigint>;
  try {
    end = await admin.endOffsets(o.dlqTopic);
    const committed = await admin.committedOffsets(groupId, o.dlqTopic);
    const start = await admin.startOffsets(o.dlqTopic);
    from = new Map([...end.keys()].map((p) => {
      const c = committed.get(p);
      const s = start.get(p) ?? 0n;
      return [p, c !== undefined && c >= s ? c : s];
    }));
  } finally { await admin.close(); }
  let total = 0;
  for (const [p, e] of end) total += Number(e - (from.get(p) ?? 0n));
  const result: RedriveResult = { redriven: 0, skipped: 0, total };
  o.onProgress?.(0, total);
  if (total <= 0) return result;

  const remaining = new Set([...end].filter(([p, e]) => e > (from.get(p) ?? 0n)).map(([p]) => p));
  let finished!: () => void;
  const done = new Promise<void>((r) => (finished = r));
  // A throwaway reader from explicit positions; the run's progress is stored under `groupId` only
  // once every record up to the end seen at the start was re-appended.
  const reader = `${groupId}.${Date.now()}`;
  // Progress is stored after every batch, so an interrupted run is continued, not repeated.
  const progress = await o.kafka.admin();
  const consumer = o.kafka.consumer({ groupId: reader, topics: [o.dlqTopic], fromBeginning: true, startOffsets: async (_t, p) => from.get(p) ?? 0n });
  await consumer.start(async (batch) => {
    const stop = end.get(batch.partition) ?? 0n;
    const start = from.get(batch.partition) ?? 0n;
    const out: Array<{ key: string; value: Buffer }> = [];
    let seen = 0;
    for (const rec of batch.records) {
      if (rec.offset >= stop || rec.offset < start) continue;
      seen++;
      const parsed = deadLetterRecord.safeParse(parseJson(rec.value));
      // Skipped: not this topic's, unreadable, or too large to have been carried inline (the
      // original stays at its origin partition/offset while retention keeps it).
      if (!parsed.success || parsed.data.topic !== o.topic || parsed.data.value_base64 === null) { result.skipped++; continue; }
      out.push({ key: parsed.data.key ?? '', value: Buffer.from(parsed.data.value_base64, 'base64') });
    }
    if (out.length) await o.producer.send(o.topic, out);
    result.redriven += out.length;
    if (seen) o.onProgress?.(Math.min(total, result.redriven + result.skipped), total);
    const last = batch.records[batch.records.length - 1];
    if (last) {
      const next = last.offset + 1n < stop ? last.offset + 1n : stop;
      await progress.setCommittedOffsets(groupId, o.dlqTopic, new Map([[batch.partition, next]]));
    }
    if (last && last.offset + 1n >= stop) { remaining.delete(batch.partition); if (remaining.size === 0) finished(); }
  });
  try {
    await done;
  } finally {
    await consumer.stop();
    await progress.deleteGroup(reader);
    await progress.close();
  }
  return result;
}

function parseJson(v: Buffer | null): unknown {
  if (!v) return null;
  try { return JSON.parse(v.toString('utf8')) as unknown; } catch { return null; }
}
