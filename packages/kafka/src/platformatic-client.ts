// KafkaClient over @platformatic/kafka (producer and consumer). Topic administration is not on a hot
// path and reuses the kafkajs admin.
import { Consumer as PConsumer, Producer as PProducer, ProduceAcks } from '@platformatic/kafka';
import type { Consumer, ConsumerOptions, IncomingBatch, IncomingRecord, KafkaClient, KafkaSettings, Producer } from './ports.ts';
import { createKafkajsClient } from './kafkajs-client.ts';
import { backoffMs, sleep } from '@llm/errors';

export function createPlatformaticClient(settings: KafkaSettings): KafkaClient {
  const admins = createKafkajsClient(settings);

  async function producer(): Promise<Producer> {
    const p = new PProducer<string, Buffer, string, string>({
      clientId: settings.clientId,
      bootstrapBrokers: settings.brokers,
      idempotent: true,
      acks: ProduceAcks.ALL,
      autocreateTopics: false,
      serializers: { key: (k?: string) => (k === undefined ? undefined : Buffer.from(k)), value: (v?: Buffer) => v, headerKey: (k?: string) => (k === undefined ? undefined : Buffer.from(k)), headerValue: (v?: string) => (v === undefined ? undefined : Buffer.from(v)) },
    });
    return {
      async send(topic, records) {
        if (records.length === 0) return;
        await p.send({ messages: records.map((m) => ({ topic, key: m.key, value: m.value })) });
      },
      close: () => p.close(),
    };
  }

  function consumer(opts: ConsumerOptions): Consumer {
    const c = new PConsumer({
      clientId: settings.clientId,
      bootstrapBrokers: settings.brokers,
      groupId: opts.groupId,
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
      maxWaitTime: 100,
      maxBytesPerPartition: 4 * 1024 * 1024,
    });
    let joined!: () => void;
    const joinedP = new Promise<void>((r) => (joined = r));
    let stream: Awaited<ReturnType<typeof c.consume>> | undefined;
    let stopped = false;
    return {
      async start(handle) {
        if (opts.startOffsets) {
          // Explicit positions (read-model offsets, replay ranges): fetch from them in manual mode;
          // a partition without one starts at the beginning.
          const admin = await admins.admin();
          const offsets: Array<{ topic: string; partition: number; offset: bigint }> = [];
          try {
            for (const topic of opts.topics) {
              for (const partition of (await admin.endOffsets(topic)).keys()) {
                offsets.push({ topic, partition, offset: (await opts.startOffsets(topic, partition)) ?? 0n });
              }
            }
          } finally { await admin.close(); }
          stream = await c.consume({ topics: opts.topics, mode: 'manual', offsets, autocommit: false });
        } else {
          stream = await c.consume({ topics: opts.topics, mode: 'committed', fallbackMode: opts.fromBeginning ? 'earliest' : 'latest', autocommit: false });
        }
        joined();
        // Per-partition queues, each drained by one sequential worker: order within a partition is
        // kept, partitions proceed in parallel, and the stream pauses while too much is queued.
        const queues = new Map<string, { records: IncomingRecord[]; running: boolean; last?: { commit: () => unknown } }>();
        let queued = 0;
        const s = stream;
        const drain = async (key: string): Promise<void> => {
          const q = queues.get(key)!;
          if (q.running) return;
          q.running = true;
          try {
            for (let attempt = 0; q.records.length && !stopped; ) {
              const records = q.records.splice(0, q.records.length);
              const last = q.last!;
              const batch: IncomingBatch = { topic: records[0]!.topic, partition: records[0]!.partition, records };
              try {
                await handle(batch);
                attempt = 0;
              } catch (err) {
                // Never skip and never stop silently: the same records are handled again after a
                // capped backoff (handlers here are idempotent).
                settings.log?.('error', 'consumer batch failed; retrying', { err, attempt, partition: batch.partition });
                q.records.unshift(...records);
                await sleep(backoffMs(attempt++, 200, 10_000));
                continue;
              }
              // A failed commit (e.g. after a rebalance) is not fatal: the next commit covers it, and
              // re-delivery of these records is harmless.
              await Promise.resolve(last.commit()).catch((err: unknown) => settings.log?.('warn', 'offset commit failed', { err }));
              queued -= records.length;
              if (queued < 5_000 && s.isPaused()) s.resume();
            }
          } finally {
            q.running = false;
          }
        };
        s.on('data', (m) => {
          const key = `${m.topic}:${m.partition}`;
          let q = queues.get(key);
          if (!q) queues.set(key, (q = { records: [], running: false }));
          q.records.push({ topic: m.topic, partition: m.partition, offset: m.offset, key: m.key ? m.key.toString() : null, value: m.value ?? null, timestampMs: Number(m.timestamp) });
          q.last = m;
          queued++;
          if (queued > 20_000) s.pause();
          void drain(key);
        });
        s.on('error', (err) => settings.log?.('error', 'consumer stream error', { err }));
      },
      async stop() {
        stopped = true;
        await stream?.close().catch(() => undefined);
        await c.close(true);
      },
      ready: () => joinedP,
    };
  }

  return { producer, consumer, admin: () => admins.admin() };
}
