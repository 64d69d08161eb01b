// Reads a bounded range of a topic — [from, to) per partition — through the same consumer port the
// services use, then leaves no trace: the throwaway group it reads under is deleted afterwards (as
// re-drive does), so `ops lag` never lists the CLI's own reads.
import type { IncomingRecord, KafkaClient } from '@llm/kafka';

export interface ReadRange {
  kafka: KafkaClient;
  topic: string;
  from: Map<number, bigint>;
  to: Map<number, bigint>;
  onRecord: (rec: IncomingRecord) => void;
  onProgress?: (done: number, total: number) => void;
}

export async function readRange(o: ReadRange): Promise<void> {
  const pending = new Set([...o.to].filter(([p, end]) => end > (o.from.get(p) ?? 0n)).map(([p]) => p));
  if (pending.size === 0) return;
  let total = 0;
  for (const p of pending) total += Number(o.to.get(p)! - (o.from.get(p) ?? 0n));
  let done = 0;
  o.onProgress?.(0, total);
  let finished!: () => void;
  const all = new Promise<void>((r) => (finished = r));
  const groupId = `ops-cli.read.${o.topic}.${Date.now()}.${process.pid}`;
  const consumer = o.kafka.consumer({ groupId, topics: [o.topic], fromBeginning: true, startOffsets: async (_t, p) => o.from.get(p) ?? 0n });
  await consumer.start(async (batch) => {
    const start = o.from.get(batch.partition) ?? 0n;
    const stop = o.to.get(batch.partition) ?? 0n;
    for (const rec of batch.records) {
      if (rec.offset < start || rec.offset >= stop) continue;
      o.onRecord(rec);
      done++;
    }
    o.onProgress?.(done, total);
    const last = batch.records[batch.records.length - 1];
    if (last && last.offset + 1n >= stop && pending.delete(batch.partition) && pending.size === 0) finished();
  });
  try {
    await all;
  } finally {
    await consumer.stop();
    const admin = await o.kafka.admin();
    try { await admin.deleteGroup(groupId); } finally { await admin.close(); }
  }
}
