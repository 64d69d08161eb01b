// Rebuilds the span read model from the spans topic into fresh tables, then swaps them in:
//  1. refuse if retention already removed the topic's oldest records (the rebuild would drop spans)
//     unless `allowTruncated`,
//  2. create `spans_rebuild_<ts>` and `trace_index_rebuild_<ts>` with the same migrations and consume [start, E1) into it,
//  3. pause the live projector (when the caller can: the all-in-one and projector-spans processes
//     pass hooks), consume [E1, E2) so the rebuild holds everything the live table holds,
//  4. exchange the tables (index first) and resume the live projector with a fresh cache (it re-applies
//     what it had not committed; rows are idempotent by version),
//  5. without pause hooks (a separate replay process beside a live projector), catch up after the
//     swap whatever the live projector committed meanwhile instead.
import type { Clickhouse } from '@llm/clickhouse';
import { migrateClickhouse } from '@llm/clickhouse';
import { forgetSpanPurges } from './purge/span-purge.ts';
import type { Topics } from '@llm/events';
import type { Admin, IncomingBatch, KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { createSpansConsumer } from './consumer/spans-consumer.ts';
import { spanTables, type SpanTables } from '@llm/span-table';
import { SPANS_GROUP, SPANS_MIGRATIONS, SPAN_TABLES } from './app.ts';

export interface ReplayDeps {
  kafka: KafkaClient;
  producer: Producer;
  ch: Clickhouse;
  topics: Topics;
  log: Logger;
  onProgress?: (done: bigint, total: bigint) => void;
  keepOld?: boolean;
  allowTruncated?: boolean;
  /** Stop / restart the live projector around the final catch-up and the swap. */
  pauseLive?: () => Promise<void>;
  resumeLive?: () => Promise<void>;
}

export interface ReplayResult {
  records: bigint;
  table: string;
  rows: number;
}

type Positions = Map<number, bigint>;

async function consumeRange(deps: ReplayDeps, tables: SpanTables, groupId: string, from: Positions, to: Positions, onBatch: (b: IncomingBatch) => void): Promise<void> {
  const pending = new Set([...to].filter(([p, end]) => end > (from.get(p) ?? 0n)).map(([p]) => p));
  if (pending.size === 0) return;
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const c = createSpansConsumer({
    kafka: deps.kafka, producer: deps.producer, ch: deps.ch, topics: deps.topics, log: deps.log, groupId, tables,
    startOffsets: async (_t, p) => from.get(p) ?? 0n,
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

const sum = (m: Positions, base?: Positions): bigint => [...m].reduce((a, [p, v]) => a + (v - (base?.get(p) ?? 0n)), 0n);

async function checkRetention(admin: Admin, topic: string, allowTruncated: boolean): Promise<Positions> {
  const start = await admin.startOffsets(topic);
  const truncated = [...start].filter(([, o]) => o > 0n);
  if (truncated.length && !allowTruncated) {
    throw new Error(`retention already removed the oldest records of ${topic} (partitions ${truncated.map(([p]) => p).join(', ')}); `
      + 'a rebuild would drop those spans. Re-run with --allow-truncated to rebuild from what the topic retains.');
  }
  return start;
}

export async function replaySpans(deps: ReplayDeps): Promise<ReplayResult> {
  const { ch, log } = deps;
  const stamp = new Date().toISOString().replace(/[-:T.Z]/g, '').slice(0, 14);
  const suffix = `_rebuild_${stamp}`;
  const rebuild = spanTables(suffix);
  const db = ch.database;
  const admin = await deps.kafka.admin();
  let paused = false;
  try {
    const start = await checkRetention(admin, deps.topics.spans, deps.allowTruncated ?? false);
    await migrateClickhouse(ch, SPANS_MIGRATIONS, { suffix });
    const end1 = await admin.endOffsets(deps.topics.spans);
    let total = sum(end1, start);
    let done = 0n;
    const progress = (b: IncomingBatch): void => { done += BigInt(b.records.length); deps.onProgress?.(done, total); };
    deps.onProgress?.(0n, total);
    await consumeRange(deps, rebuild, `projector-spans.replay-${stamp}`, start, end1, progress);

    if (deps.pauseLive) {
      await deps.pauseLive();
      paused = true;
      const end2 = await admin.endOffsets(deps.topics.spans);
      total += sum(end2, end1);
      await consumeRange(deps, rebuild, `projector-spans.replay-final-${stamp}`, end1, end2, progress);
    }
    // One statement, but ClickHouse swaps the pairs one after the other (not atomically across
    // pairs). The index goes first: in the instant between, readers see the rebuilt index beside the
    // old span table, and both hold the same traces (the index only ever widens a trace's range).
    await ch.client.command({
      query: `EXCHANGE TABLES ${db}.${SPAN_TABLES.traceIndex} AND ${db}.${rebuild.traceIndex}, ${db}.${SPAN_TABLES.spans} AND ${db}.${rebuild.spans}, ${db}.${SPAN_TABLES.roots} AND ${db}.${rebuild.roots}`,
    });
    log.info({ tables: SPAN_TABLES }, 'rebuilt span tables swapped in');
    // The rebuilt tables hold deleted projects' rows again (the topic still carries them): the span
    // purge's ledger is forgotten, so they are purged anew.
    await forgetSpanPurges(ch);
    if (paused) {
      paused = false;
      await deps.resumeLive!();
    } else {
      const committed = await admin.committedOffsets(SPANS_GROUP, deps.topics.spans);
      const to: Positions = new Map([...committed].filter(([p, c]) => c > (end1.get(p) ?? 0n)));
      if (to.size) await consumeRange(deps, SPAN_TABLES, `projector-spans.replay-catchup-${stamp}`, end1, to, () => undefined);
    }
    for (const g of ['replay', 'replay-final', 'replay-catchup']) await admin.deleteGroup(`projector-spans.${g}-${stamp}`);
    if (!deps.keepOld) {
      await ch.client.command({ query: `DROP TABLE IF EXISTS ${db}.${rebuild.spans}` });
      await ch.client.command({ query: `DROP TABLE IF EXISTS ${db}.${rebuild.traceIndex}` });
      await ch.client.command({ query: `DROP TABLE IF EXISTS ${db}.${rebuild.roots}` });
      await ch.client.command({ query: `DROP TABLE IF EXISTS ${db}.schema_migrations${suffix}` });
    }
    const r = await ch.client.query({ query: `SELECT count() AS n FROM ${db}.${SPAN_TABLES.spans} FINAL WHERE is_deleted = 0`, format: 'JSONEachRow' });
    const rows = await r.json<{ n: string }>();
    return { records: done, table: SPAN_TABLES.spans, rows: Number(rows[0]?.n ?? 0) };
  } finally {
    if (paused) await deps.resumeLive!().catch((err: unknown) => log.error({ err }, 'could not resume the live projector'));
    await admin.close();
  }
}
