// Kafka's linger.ms, in front of any Producer: records sent by concurrent requests within a few
// milliseconds travel in one produce call, which is what lets a small number of broker round trips
// carry tens of thousands of spans per second. Each caller still resolves only when *its* records
// were acknowledged (or rejects with the batch's error). Call order is kept: batches leave in order,
// and with maxInFlight = 1 a batch waits for the previous one.
import type { OutgoingRecord, Producer } from './ports.ts';

export interface LingerOptions {
  lingerMs: number;
  maxBatchRecords: number;
  maxBatchBytes: number;
  maxInFlight: number;
}

interface Pending {
  records: OutgoingRecord[];
  bytes: number;
  waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }>;
}

export class LingerProducer implements Producer {
  private readonly pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private readonly ready: Array<{ topic: string; batch: Pending }> = [];

  constructor(private readonly inner: Producer, private readonly opts: LingerOptions) {}

  send(topic: string, records: OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      let p = this.pending.get(topic);
      if (!p) this.pending.set(topic, (p = { records: [], bytes: 0, waiters: [] }));
      for (const r of records) { p.records.push(r); p.bytes += r.value.length + r.key.length; }
      p.waiters.push({ resolve, reject });
      if (p.records.length >= this.opts.maxBatchRecords || p.bytes >= this.opts.maxBatchBytes) this.cut(topic);
      else if (!this.timer) this.timer = setTimeout(() => this.cutAll(), this.opts.lingerMs);
    });
  }

  private cutAll(): void {
    this.timer = undefined;
    for (const topic of [...this.pending.keys()]) this.cut(topic);
  }

  private cut(topic: string): void {
    const batch = this.pending.get(topic);
    if (!batch || batch.records.length === 0) return;
    this.pending.delete(topic);
    this.ready.push({ topic, batch });
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < this.opts.maxInFlight && this.ready.length) {
      const { topic, batch } = this.ready.shift()!;
      this.inFlight++;
      this.inner.send(topic, batch.records).then(
        () => { for (const w of batch.waiters) w.resolve(); },
        (err: unknown) => { for (const w of batch.waiters) w.reject(err); },
      ).finally(() => { this.inFlight--; this.pump(); });
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.cutAll();
    while (this.inFlight > 0 || this.ready.length) await new Promise((r) => setTimeout(r, 5));
    await this.inner.close();
  }
}
