// Topic creation against real brokers: ensureTopics resolves only when every partition's leader
// answers, so the first ListOffsets / produce right after it never meets NOT_LEADER_FOR_PARTITION —
// also on a broker that has only just opened its port (the first `npm start` on a fresh machine).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { topicsFor } from '@llm/events';
import { createKafkaClient, type KafkaClientKind } from '../src/index.ts';

const topicSet = (partitions: number) => topicsFor({
  prefix: `t${randomBytes(4).toString('hex')}.`, spansPartitions: partitions, accountsPartitions: 1,
  spansRetentionMs: 3_600_000, dlqRetentionMs: 3_600_000,
});

/** ListOffsets with no retry at all: fails on the first NOT_LEADER_FOR_PARTITION. */
async function listOffsetsOnce(brokers: string, topics: string[]): Promise<Map<string, number>> {
  const a = new Kafka({ clientId: 'probe', brokers: [brokers], logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin();
  await a.connect();
  try {
    const out = new Map<string, number>();
    for (const t of topics) out.set(t, (await a.fetchTopicOffsets(t)).length);
    return out;
  } finally { await a.disconnect(); }
}

describe.each<KafkaClientKind>(['kafkajs', 'platformatic'])('ensureTopics (%s)', (kind) => {
  it('when topics were just created, then every partition answers ListOffsets at once and a second call changes nothing', async () => {
    const brokers = inject('kafkaBrokers');
    const topics = topicSet(12);
    const kafka = await createKafkaClient({ brokers: [brokers], clientId: 'topics-ready-test' }, kind);
    const admin = await kafka.admin();
    try {
      await admin.ensureTopics(topics.all);
      const counts = await listOffsetsOnce(brokers, topics.all.map((t) => t.name));
      expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(topics.all.map((t) => [t.name, t.partitions])));
      await admin.ensureTopics(topics.all);
      expect((await admin.endOffsets(topics.spans)).size).toBe(12);
      expect((await admin.startOffsets(topics.spans)).get(0)).toBe(0n);
      expect((await admin.committedOffsets('nobody', topics.spans)).size).toBe(0);
    } finally { await admin.close(); }
  });
});

describe('ensureTopics on a broker that has just opened its port', () => {
  const stops: Array<() => Promise<void>> = [];
  afterAll(async () => { for (const s of stops) await s(); });

  it('when topics are created and read at once, then nothing fails with a leader or controller error', async () => {
    // @ts-expect-error plain .mjs modules without types
    const { startKafka } = await import('../../../deploy/local/kafka.mjs');
    // @ts-expect-error see above
    const { freePort } = await import('../../../deploy/local/ports.mjs');
    const dir = mkdtempSync(path.join(inject('runDir'), 'fresh-kafka-'));
    stops.push(async () => rmSync(dir, { recursive: true, force: true }));
    // Only the port is awaited: the broker may not have registered or elected any leader yet.
    const k = await startKafka({ dataDir: dir, port: await freePort(), controllerPort: await freePort(), log: () => undefined, heap: '384m', untilServing: false }) as { brokers: string; stop: () => Promise<void> };
    stops.unshift(() => k.stop());
    const kafka = await createKafkaClient({ brokers: [k.brokers], clientId: 'fresh-broker-test' }, 'platformatic');
    const admin = await kafka.admin();
    // Several rounds: under load a broker's metadata lags its controller after every create (the
    // old code failed on UNKNOWN_TOPIC_OR_PARTITION or NOT_LEADER_FOR_PARTITION), not only the first.
    let topics = topicSet(6);
    try {
      for (let round = 0; round < 4; round++) {
        topics = topicSet(6);
        await admin.ensureTopics(topics.all);
        const counts = await listOffsetsOnce(k.brokers, topics.all.map((t) => t.name));
        expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(topics.all.map((t) => [t.name, t.partitions])));
      }
      expect((await admin.endOffsets(topics.spans)).size).toBe(6);
    } finally { await admin.close(); }
    const producer = await kafka.producer();
    try {
      await producer.send(topics.accounts, [{ key: 'k', value: Buffer.from('v') }]);
    } finally { await producer.close(); }
    const end = await kafka.admin();
    try { expect((await end.endOffsets(topics.accounts)).get(0)).toBe(1n); } finally { await end.close(); }
  }, 120_000);
});
