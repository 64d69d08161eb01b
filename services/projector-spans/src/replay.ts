// Rebuilds the span read model from the spans topic into fresh tables, then swaps them in:
//  1. create `spans_rebuild_<ts>` with the same migrations,
//  2. note the topic's end offsets E and consume from offset 0 up to E into the new table,
//  3. atomically exchange it with the live table,
//  4. catch up [E, live group's committed offsets) into the now-live table, so spans the live
//     projector wrote to the old table during the rebuild are not lost (rows are idempotent by
//     version, so overlap is harmless), then drop the old table.
import type { Clickhouse } from '@llm/clickhouse';
import { migrateClickhouse } from '@llm/clickhouse';
import type { Topics } from '@llm/events';
import type { IncomingBatch, KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { createSpansConsumer } from './consumer/spans-consumer.ts';
import { SPANS_GROUP, SPANS_MIGRATIONS, SPANS_TABLE } from './app.ts';

export interface ReplayDeps {
  kafka: KafkaClient;
  producer: Producer;
  ch: Clickhouse;
  topics: Topics;
  log: Logger;
  onProgress?: (done: bigint, total: bigint) => void;
  keepOld?: boolean;
}

export interface ReplayResult {
  records: bigint;
  table: string;
  rows: number;
}

type Positions = Map<number, bigint>;

async function consumeRange(deps: ReplayDeps, table: string, groupId: string, from: Positions | undefined, to: Positions, onBatch: (b: IncomingBatch) => void): Promise<void> {
  const pending = new Set([...to].filter(([p, end]) => end > (from?.get(p) ?? 0n)).map(([p]) => p));
  if (pending.size === 0) return;
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const c = createSpansConsumer({
    kafka: deps.kafka, producer: deps.producer, ch: deps.ch, topics: deps.topics, log: deps.log, groupId, table,
    startOffsets: from ? async (_t, p) => from.get(p) ?? 0n : undefined,
    onApplied: (b) => {
      onBatch(b);
      const last = b.records[b.records.length - 1]!.offset + 1n;
      if (last >= (to.get(b.partition) ?? 0n)) pending.delete(b.partition);
      if (pending.size === 0) resolveDone();
    },
  });
  await c.start();
  await done;
  await c.stop();
}

export async function replaySpans(deps: ReplayDeps): Promise<ReplayResult> {
  const { ch, log } = deps;
  const stamp = new Date().toISOString().replace(/[-:T.Z]/g, '').slice(0, 14);
  const suffix = `_rebuild_${stamp}`;
  const rebuild = `${SPANS_TABLE}${suffix}`;
  await migrateClickhouse(ch, SPANS_MIGRATIONS, { suffix });
  const admin = await deps.kafka.admin();
  try {
    const end = await admin.endOffsets(deps.topics.spans);
    const total = [...end.values()].reduce((a, b) => a + b, 0n);
    let done = 0n;
    const progress = (b: IncomingBatch): void => { done += BigInt(b.records.length); deps.onProgress?.(done, total); };
    deps.onProgress?.(0n, total);
    const group = `projector-spans.replay-${stamp}`;
    await consumeRange(deps, rebuild, group, undefined, end, progress);
    await admin.deleteGroup(group);

    const db = ch.database;
    await ch.client.command({ query: `EXCHANGE TABLES ${db}.${SPANS_TABLE} AND ${db}.${rebuild}` });
    log.info({ table: SPANS_TABLE }, 'rebuilt span table swapped in');

    const committed = await admin.committedOffsets(SPANS_GROUP, deps.topics.spans);
    const catchUpTo: Positions = new Map([...committed].filter(([p, c]) => c > (end.get(p) ?? 0n)));
    if (catchUpTo.size) {
      const cg = `projector-spans.replay-catchup-${stamp}`;
      await consumeRange(deps, SPANS_TABLE, cg, end, catchUpTo, () => undefined);
      await admin.deleteGroup(cg);
    }
    if (!deps.keepOld) {
      await ch.client.command({ query: `DROP TABLE IF EXISTS ${db}.${rebuild}` });
      await ch.client.command({ query: `DROP TABLE IF EXISTS ${db}.schema_migrations${suffix}` });
    }
    const r = await ch.client.query({ query: `SELECT count() AS n FROM ${db}.${SPANS_TABLE} FINAL WHERE is_deleted = 0`, format: 'JSONEachRow' });
    const rows = await r.json<{ n: string }>();
    return { records: done, table: SPANS_TABLE, rows: Number(rows[0]?.n ?? 0) };
  } finally {
    await admin.close();
  }
}
