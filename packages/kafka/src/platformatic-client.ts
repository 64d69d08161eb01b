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
    let joined!: () => void;
    const joinedP = new Promise<void>((r) => (joined = r));
    let stopped = false;
    // One generation = one client and its stream. A stream that fails for good (the broker was away
    // longer than the client's retries, the group coordinator moved) is replaced by a new
    // generation after the old one's in-flight batches finished: records not yet handled are
    // fetched again from the committed (or read-model) positions, never skipped.
    let current: { c: PConsumer<Buffer, Buffer, Buffer, Buffer>; stream?: Awaited<ReturnType<PConsumer<Buffer, Buffer, Buffer, Buffer>['consume']>>; drains: Set<Promise<void>> } | undefined;
    let handler!: (batch: IncomingBatch) => Promise<void>;
    let reopening: Promise<void> | undefined;

    async function open(generation: number): Promise<void> {
      const c = new PConsumer({
        clientId: settings.clientId,
        bootstrapBrokers: settings.brokers,
        groupId: opts.groupId,
        sessionTimeout: 30_000,
        heartbeatInterval: 3_000,
        // A fetch the broker holds until records arrive (minBytes 1 answers at once when they do):
        // idle consumers ask once every 5 s instead of ten times a second (a stop closes the
        // connection, so it does not wait for a held fetch).
        maxWaitTime: 5_000,
        maxBytesPerPartition: 4 * 1024 * 1024,
        retries: 10,
        retryDelay: 500,
      });
      const gen = { c, drains: new Set<Promise<void>>() } as NonNullable<typeof current>;
      current = gen;
      try {
        await subscribe(gen, generation);
      } catch (err) {
        // A client that never got its stream must not stay behind (it may have joined the group).
        if (current === gen) current = undefined;
        await Promise.resolve().then(() => c.close(true)).catch(() => undefined);
        throw err;
      }
    }

    async function subscribe(gen: NonNullable<typeof current>, generation: number): Promise<void> {
      const c = gen.c;
      let stream: NonNullable<typeof gen.stream>;
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
      gen.stream = stream;
      joined();
      // Per-partition queues, each drained by one sequential worker: order within a partition is
      // kept, partitions proceed in parallel, and the stream pauses while too much is queued.
      const queues = new Map<string, { records: IncomingRecord[]; running: boolean; last?: { commit: () => unknown } }>();
      let queued = 0;
      const live = () => !stopped && current === gen;
      const drain = async (key: string): Promise<void> => {
        const q = queues.get(key)!;
        if (q.running) return;
        q.running = true;
        try {
          for (let attempt = 0; q.records.length && live(); ) {
            const records = q.records.splice(0, q.records.length);
            const last = q.last!;
            const batch: IncomingBatch = { topic: records[0]!.topic, partition: records[0]!.partition, records };
            try {
              await handler(batch);
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
            if (queued < 5_000 && stream.isPaused()) stream.resume();
          }
        } finally {
          q.running = false;
        }
      };
      stream.on('data', (m) => {
        if (!live()) return;
        const key = `${m.topic}:${m.partition}`;
        let q = queues.get(key);
        if (!q) queues.set(key, (q = { records: [], running: false }));
        q.records.push({ topic: m.topic, partition: m.partition, offset: m.offset, key: m.key ? m.key.toString() : null, value: m.value ?? null, timestampMs: Number(m.timestamp) });
        q.last = m;
        queued++;
        if (queued > 20_000) stream.pause();
        const d = drain(key);
        gen.drains.add(d);
        void d.finally(() => gen.drains.delete(d));
      });
      stream.on('error', (err) => {
        settings.log?.('error', 'consumer stream error; reconnecting', { err });
        if (live()) reopening = reopen(gen, generation);
      });
    }

    async function reopen(gen: NonNullable<typeof current>, generation: number): Promise<void> {
      current = undefined;
      await Promise.allSettled([...gen.drains]);
      await gen.stream?.close().catch(() => undefined);
      await Promise.resolve().then(() => gen.c.close(true)).catch(() => undefined);
      for (let attempt = 0; !stopped; attempt++) {
        await sleep(backoffMs(attempt, 500, 10_000));
        if (stopped) return;
        try { await open(generation + 1); return; } catch (err) {
          settings.log?.('warn', 'consumer reconnect failed; retrying', { err, attempt });
        }
      }
    }

    return {
      async start(handle) {
        handler = handle;
        await open(0);
      },
      async stop() {
        stopped = true;
        // A reconnect in progress settles first (it gives up once `stopped` is set).
        await reopening?.catch(() => undefined);
        const gen = current;
        current = undefined;
        await gen?.stream?.close().catch(() => undefined);
        // Handlers still running finish before stop resolves (writers flush after this).
        if (gen) await Promise.allSettled([...gen.drains]);
        await Promise.resolve().then(() => gen?.c.close(true)).catch(() => undefined);
      },
      ready: () => joinedP,
    };
  }

  return { producer, consumer, admin: () => admins.admin() };
}
