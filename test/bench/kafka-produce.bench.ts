// npm run bench:kafka [-- --client kafkajs|platformatic]: the Kafka producer alone, in the ingest
// shape (20 records of ~4 KB per send, acks=all, idempotent, 32 sends in flight) against a local
// broker. Isolates the client's cost from the rest of the ingest path.
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createKafkaClient, DEFAULT_KAFKA_CLIENT, type KafkaClientKind } from '@llm/kafka';
import { topicsFor } from '@llm/events';

const { values: opt } = parseArgs({ options: { client: { type: 'string', default: DEFAULT_KAFKA_CLIENT }, seconds: { type: 'string', default: '10' }, inflight: { type: 'string', default: '32' } } });
const root = path.resolve(import.meta.dirname, '../..');
// @ts-expect-error plain .mjs without types
const { startKafka } = await import('../../deploy/local/kafka.mjs');
// @ts-expect-error plain .mjs without types
const { freePort } = await import('../../deploy/local/ports.mjs');
mkdirSync(path.join(root, '.data'), { recursive: true });
const dir = mkdtempSync(path.join(root, '.data', 'kbench-'));
const kafka = await startKafka({ dataDir: dir, port: await freePort(), controllerPort: await freePort(), log: () => undefined });
try {
  const client = await createKafkaClient({ brokers: [kafka.brokers], clientId: 'bench', log: (l, m, e) => { if (l === 'error') console.error(m, e); } }, opt.client as KafkaClientKind);
  const topics = topicsFor({ prefix: '', spansPartitions: 6, accountsPartitions: 1, spansRetentionMs: 3600_000, dlqRetentionMs: 3600_000 });
  const admin = await client.admin();
  await admin.ensureTopics(topics.all);
  await admin.close();
  const producer = await client.producer();
  const value = randomBytes(4000);
  let sends = 0;
  let failed = 0;
  const lat: number[] = [];
  const t0 = performance.now();
  const end = t0 + Number(opt.seconds) * 1000;
  await Promise.all(Array.from({ length: Number(opt.inflight) }, async () => {
    while (performance.now() < end) {
      const s = performance.now();
      try {
        await producer.send(topics.spans, Array.from({ length: 20 }, () => ({ key: randomBytes(8).toString('hex'), value })));
        sends++;
        lat.push(performance.now() - s);
      } catch (err) { failed++; if (failed < 2) console.error(JSON.stringify((err as { errors?: Array<{ response?: unknown; errors?: unknown }> }).errors?.[0]?.response ?? err, (_k, v) => (typeof v === "bigint" ? String(v) : v)).slice(0, 1500)); }
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  console.log(`${opt.client}: ${(sends / secs).toFixed(0)} sends/s (${(sends * 20 / secs).toFixed(0)} records/s, ${(sends * 20 * 4000 / secs / 1e6).toFixed(1)} MB/s), p50 ${lat[Math.floor(lat.length / 2)]?.toFixed(1)} ms, p99 ${lat[Math.floor(lat.length * 0.99)]?.toFixed(1)} ms, ${failed} failed`);
  await producer.close();
} finally {
  await kafka.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
