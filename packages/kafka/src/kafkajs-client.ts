// KafkaClient over kafkajs.
import { Kafka, logLevel, CompressionTypes, Partitioners, type Consumer as KConsumer } from 'kafkajs';
import type { Admin, Consumer, ConsumerOptions, IncomingBatch, KafkaClient, KafkaSettings, Producer } from './ports.ts';
import { ADMIN_CALL_RETRY, retryTransient, waitForLeaders } from './admin-retry.ts';
import { clampKafkajsTimers } from './kafkajs-timer-clamp.mjs';

clampKafkajsTimers();

export function createKafkajsClient(settings: KafkaSettings): KafkaClient {
  const kafka = new Kafka({
    clientId: settings.clientId,
    brokers: settings.brokers,
    logLevel: logLevel.WARN,
    logCreator: () => ({ level, log }) => {
      // Retries are bounded on purpose: an ingest request must fail (503) rather than hang when the
      // cluster is gone; the idempotent producer still de-duplicates the retries it does make.
      if (/Limiting retries for the idempotent producer/.test(log.message)) return;
      const lv = level === logLevel.ERROR ? 'error' : level === logLevel.WARN ? 'warn' : 'info';
      settings.log?.(lv, `kafkajs: ${log.message}`, { broker: log.broker, error: log.error });
    },
    retry: { initialRetryTime: 100, retries: 8 },
  });

  async function producer(): Promise<Producer> {
    // The Java-compatible murmur2 partitioner: other clients place the same keys on the same partitions.
    const p = kafka.producer({ idempotent: true, maxInFlightRequests: 5, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    await p.connect();
    return {
      async send(topic, records) {
        if (records.length === 0) return;
        await p.send({
          topic,
          acks: -1,
          compression: CompressionTypes.None,
          messages: records.map((r) => ({ key: r.key, value: r.value })),
        });
      },
      close: () => p.disconnect(),
    };
  }

  function consumer(opts: ConsumerOptions): Consumer {
    const c: KConsumer = kafka.consumer({
      groupId: opts.groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
      maxBytesPerPartition: 4 * 1024 * 1024,
      maxWaitTimeInMs: 1_000, // held by the broker until records arrive: idle consumers do not poll
    });
    let joined!: () => void;
    const joinedP = new Promise<void>((r) => (joined = r));
    c.on(c.events.GROUP_JOIN, () => joined());
    return {
      async start(handle) {
        await c.connect();
        for (const t of opts.topics) await c.subscribe({ topic: t, fromBeginning: opts.fromBeginning });
        if (opts.startOffsets) {
          c.on(c.events.GROUP_JOIN, (e) => {
            const assignment = e.payload.memberAssignment as Record<string, number[]>;
            void (async () => {
              for (const [topic, parts] of Object.entries(assignment)) {
                for (const partition of parts) {
                  const off = await opts.startOffsets!(topic, partition);
                  if (off !== undefined) c.seek({ topic, partition, offset: off.toString() });
                }
              }
            })();
          });
        }
        await c.run({
          autoCommit: false,
          eachBatchAutoResolve: false,
          partitionsConsumedConcurrently: opts.concurrency ?? 4,
          eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
            if (!isRunning() || isStale() || batch.messages.length === 0) return;
            const b: IncomingBatch = {
              topic: batch.topic,
              partition: batch.partition,
              records: batch.messages.map((m) => ({
                topic: batch.topic,
                partition: batch.partition,
                offset: BigInt(m.offset),
                key: m.key ? m.key.toString() : null,
                value: m.value,
                timestampMs: Number(m.timestamp),
              })),
            };
            // Handlers may retry a batch for a long time (a store being down): keep the group session
            // alive meanwhile so the partition is not reassigned under them.
            const beat = setInterval(() => { heartbeat().catch(() => undefined); }, 3_000);
            try {
              await handle(b);
            } finally {
              clearInterval(beat);
            }
            const last = batch.messages[batch.messages.length - 1]!.offset;
            resolveOffset(last);
            await c.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() }]);
            await heartbeat();
          },
        });
      },
      stop: () => c.disconnect(),
      ready: () => joinedP,
    };
  }

  async function admin(): Promise<Admin> {
    const a = kafka.admin();
    const onRetry = (what: string) => (err: unknown, attempt: number, waitMs: number): void => {
      settings.log?.(attempt < 3 ? 'info' : 'warn', `kafka admin: ${what} not answered yet; retrying`, { err: err instanceof Error ? err.message : String(err), attempt, waitMs });
    };
    const call = <T>(what: string, fn: () => Promise<T>): Promise<T> => retryTransient(fn, { ...ADMIN_CALL_RETRY, onRetry: onRetry(what) });
    const readyDeadlineMs = settings.topicsReadyTimeoutMs ?? 60_000;
    await retryTransient(() => a.connect(), { attempts: Number.POSITIVE_INFINITY, deadlineMs: readyDeadlineMs, onRetry: onRetry('connect') });
    return {
      async ensureTopics(specs) {
        if (specs.length === 0) return;
        const t0 = Date.now();
        const left = (): number => Math.max(0, readyDeadlineMs - (Date.now() - t0));
        // Listed again on every attempt: after a partial failure, or a create by another process,
        // only what is still missing is created.
        await retryTransient(async () => {
          const existing = new Set(await a.listTopics());
          const missing = specs.filter((s) => !existing.has(s.name));
          if (missing.length === 0) return;
          await a.createTopics({
            waitForLeaders: false,
            topics: missing.map((s) => ({
              topic: s.name,
              numPartitions: s.partitions,
              replicationFactor: -1,
              configEntries: [
                { name: 'retention.ms', value: String(s.retentionMs) },
                { name: 'cleanup.policy', value: s.cleanupPolicy },
                { name: 'min.insync.replicas', value: '1' },
                { name: 'max.message.bytes', value: String(s.maxMessageBytes) },
              ],
            })),
          });
        }, {
          attempts: Number.POSITIVE_INFINITY, deadlineMs: left(), baseMs: 100, capMs: 2_000, onRetry: onRetry('topic creation'),
          context: { brokersRegistering: true, alreadyDone: new Set(['TOPIC_ALREADY_EXISTS']) },
        });
        // Existing topics too: after a broker restart their leaders may not be elected yet.
        await waitForLeaders(specs.map((s) => s.name), {
          async describe(topics) {
            const md = await a.fetchTopicMetadata({ topics });
            return md.topics.map((t) => ({ topic: t.name, partitions: t.partitions.map((p) => ({ partition: p.partitionId, leader: p.leader, errorCode: p.partitionErrorCode })) }));
          },
          async listOffsets(topic) { await a.fetchTopicOffsets(topic); },
        }, { deadlineMs: left(), baseMs: 100, capMs: 2_000, onRetry: onRetry('partition leaders') });
      },
      async endOffsets(topic) {
        const r = await call('end offsets', () => a.fetchTopicOffsets(topic));
        return new Map(r.map((p) => [p.partition, BigInt(p.high)]));
      },
      async offsetsAfter(topic, timestampMs) {
        const r = await call('offsets by time', () => a.fetchTopicOffsetsByTimestamp(topic, timestampMs));
        return new Map(r.map((p) => [p.partition, BigInt(p.offset)]));
      },
      async startOffsets(topic) {
        const r = await call('start offsets', () => a.fetchTopicOffsets(topic));
        return new Map(r.map((p) => [p.partition, BigInt(p.low)]));
      },
      async committedOffsets(groupId, topic) {
        const r = await call('committed offsets', () => a.fetchOffsets({ groupId, topics: [topic] }));
        const out = new Map<number, bigint>();
        for (const t of r) for (const p of t.partitions) if (p.offset !== '-1') out.set(p.partition, BigInt(p.offset));
        return out;
      },
      async setCommittedOffsets(groupId, topic, offsets) {
        await call('set offsets', () => a.setOffsets({ groupId, topic, partitions: [...offsets].map(([partition, offset]) => ({ partition, offset: offset.toString() })) }));
      },
      async deleteGroup(groupId) {
        await a.deleteGroups([groupId]).catch(() => undefined);
      },
      listTopics: () => call('list topics', () => a.listTopics()),
      async listGroups() {
        const r = await call('list groups', () => a.listGroups());
        return r.groups.map((g) => g.groupId);
      },
      async groupOffsets(groupId) {
        // Without a topic list the broker answers for every topic the group committed to.
        const r = await call('group offsets', () => a.fetchOffsets({ groupId }));
        const out = new Map<string, Map<number, bigint>>();
        for (const t of r) {
          const parts = new Map<number, bigint>();
          for (const p of t.partitions) if (p.offset !== '-1') parts.set(p.partition, BigInt(p.offset));
          if (parts.size) out.set(t.topic, parts);
        }
        return out;
      },
      close: () => a.disconnect(),
    };
  }

  return { producer, consumer, admin };
}
