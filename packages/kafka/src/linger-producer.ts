// Kafka's linger.ms, in front of any Producer: records sent by concurrent requests within a few
// milliseconds travel in one produce call, which is what lets a small number of broker round trips
// carry tens of thousands of spans per second. Each caller still resolves only when *its* records
// were acknowledged (or rejects with the error of a send that carried them). Call order is kept:
// batches leave in order, and with maxInFlight = 1 a batch waits for the previous one.
//
// One caller's records never fail another's: a record above `maxRecordBytes` is refused before it
// is queued (RecordTooLargeError), sends are cut at `maxBatchBytes`, and when the broker refuses a
// shared send for its records (size, format) each caller's records are sent again on their own, so
// only the caller whose records were refused sees the error.
import type { OutgoingRecord, Producer } from './ports.ts';
import { RecordTooLargeError, isRecordRefusal } from './record-too-large.ts';
import { gauge } from '@llm/metrics';

// The producer queue of the process: records and bytes handed to a producer and not yet
// acknowledged (lingering, waiting for a send slot, or in flight), summed over the open producers.
const live = new Set<LingerProducer>();
const sum = (f: (p: LingerProducer) => number) => () => { let n = 0; for (const p of live) n += f(p); return n; };
gauge('kafka_producer_queued_records', 'Records handed to the Kafka producer and not yet acknowledged by the brokers.', sum((p) => p.queuedRecords));
gauge('kafka_producer_queued_bytes', 'Bytes (keys and values) handed to the Kafka producer and not yet acknowledged by the brokers.', sum((p) => p.queuedBytes));
gauge('kafka_producer_sends_in_flight', 'Produce requests sent to the brokers and not answered yet.', sum((p) => p.sendsInFlight));

export interface LingerOptions {
  lingerMs: number;
  maxBatchRecords: number;
  maxBatchBytes: number;
  maxInFlight: number;
  /** Largest single record (key + value) accepted; the topic's max.message.bytes less framing. */
  maxRecordBytes?: number;
}

interface Waiter {
  records: OutgoingRecord[];
  /** Sends still carrying some of this caller's records. */
  open: number;
  failed: boolean;
  resolve: () => void;
  reject: (e: unknown) => void;
}

interface Pending { records: OutgoingRecord[]; bytes: number; waiters: Waiter[] }
interface Send { topic: string; records: OutgoingRecord[]; waiters: Waiter[] }

const sizeOf = (r: OutgoingRecord): number => r.value.length + Buffer.byteLength(r.key);

export class LingerProducer implements Producer {
  private readonly pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private readonly ready: Send[] = [];
  queuedRecords = 0;
  queuedBytes = 0;
  get sendsInFlight(): number { return this.inFlight; }

  constructor(private readonly inner: Producer, private readonly opts: LingerOptions) { live.add(this); }

  send(topic: string, records: OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const limit = this.opts.maxRecordBytes;
    if (limit !== undefined) {
      for (const r of records) {
        const n = sizeOf(r);
        if (n > limit) return Promise.reject(new RecordTooLargeError(n, limit));
      }
    }
    return new Promise<void>((resolve, reject) => {
      let p = this.pending.get(topic);
      if (!p) this.pending.set(topic, (p = { records: [], bytes: 0, waiters: [] }));
      p.waiters.push({ records, open: 0, failed: false, resolve, reject });
      for (const r of records) { p.records.push(r); p.bytes += sizeOf(r); this.queuedBytes += sizeOf(r); }
      this.queuedRecords += records.length;
      if (p.records.length >= this.opts.maxBatchRecords || p.bytes >= this.opts.maxBatchBytes) this.cut(topic);
      else if (!this.timer) this.timer = setTimeout(() => this.cutAll(), this.opts.lingerMs);
    });
  }

  private cutAll(): void {
    this.timer = undefined;
    for (const topic of [...this.pending.keys()]) this.cut(topic);
  }

  /** Packs the topic's pending records, in order, into sends of at most maxBatchBytes each. */
  private cut(topic: string): void {
    const batch = this.pending.get(topic);
    if (!batch || batch.records.length === 0) return;
    this.pending.delete(topic);
    let cur: Send = { topic, records: [], waiters: [] };
    let bytes = 0;
    for (const w of batch.waiters) {
      for (const r of w.records) {
        const n = sizeOf(r);
        if (cur.records.length && (bytes + n > this.opts.maxBatchBytes || cur.records.length >= this.opts.maxBatchRecords)) {
          this.ready.push(cur);
          cur = { topic, records: [], waiters: [] };
          bytes = 0;
        }
        cur.records.push(r);
        bytes += n;
        if (cur.waiters[cur.waiters.length - 1] !== w) { cur.waiters.push(w); w.open++; }
      }
    }
    this.ready.push(cur);
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < this.opts.maxInFlight && this.ready.length) {
      const s = this.ready.shift()!;
      this.inFlight++;
      // deliver() settles or fails every waiter itself and never rejects.
      void this.deliver(s).finally(() => {
        this.inFlight--;
        this.queuedRecords -= s.records.length;
        for (const r of s.records) this.queuedBytes -= sizeOf(r);
        this.pump();
      });
    }
  }

  private async deliver(s: Send): Promise<void> {
    try {
      await this.inner.send(s.topic, s.records);
      for (const w of s.waiters) settle(w);
    } catch (err) {
      if (s.waiters.length > 1 && isRecordRefusal(err)) {
        // Isolate: each caller's share of this send on its own. A record the broker refused in the
        // shared send may have been written for other partitions; sending again can only duplicate
        // it, which every consumer here tolerates (span versions, event ids).
        const own = new Set<OutgoingRecord>(s.records);
        for (const w of s.waiters) {
          try {
            await this.inner.send(s.topic, w.records.filter((r) => own.has(r)));
            settle(w);
          } catch (e) {
            fail(w, e);
          }
        }
        return;
      }
      for (const w of s.waiters) fail(w, err);
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.cutAll();
    while (this.inFlight > 0 || this.ready.length) await new Promise((r) => setTimeout(r, 5));
    live.delete(this);
    await this.inner.close();
  }
}

function settle(w: Waiter): void {
  if (w.failed) return;
  if (--w.open === 0) w.resolve();
}

function fail(w: Waiter, err: unknown): void {
  if (w.failed) return;
  w.failed = true;
  w.reject(err);
}
