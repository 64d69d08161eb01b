// A batching writer: rows are buffered and inserted when the buffer reaches `maxRows` or
// `maxDelayMs` after the first buffered row, whichever comes first. `write()` resolves only once its
// rows are in ClickHouse (so the consumer commits offsets after that). Bounded attempts with backoff;
// `flush()` drains on shutdown.
import { backoffMs, sleep } from '@llm/errors';
import type { Logger } from '@llm/logging';

interface Pending<T> {
  rows: T[];
  waiters: Array<{ resolve: () => void; reject: (e: Error) => void }>;
}

export interface BatchingWriterOptions<T> {
  /** Writes one batch (all or nothing from the caller's point of view; retried as a whole). */
  insert: (rows: T[]) => Promise<void>;
  maxRows?: number;
  maxDelayMs?: number;
  attempts?: number;
  log: Logger;
}

export class BatchingWriter<T extends object> {
  private pending: Pending<T> = { rows: [], waiters: [] };
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  /** Count of completed flushes; lets callers know whether their rows reached the table. */
  flushedSeq = 0;
  writeSeq = 0;

  constructor(private readonly opts: BatchingWriterOptions<T>) {}

  write(rows: T[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pending.rows.push(...rows);
      this.pending.waiters.push({ resolve, reject });
      this.writeSeq++;
      if (this.pending.rows.length >= (this.opts.maxRows ?? 50_000)) this.flushSoon(0);
      else if (!this.timer) this.flushSoon(this.opts.maxDelayMs ?? 300);
    });
  }

  /** Inserts whatever is buffered now and resolves when every insert so far has settled. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.cut();
    return this.inFlight;
  }

  private flushSoon(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = undefined; this.cut(); }, delay);
  }

  private cut(): void {
    const batch = this.pending;
    if (batch.rows.length === 0) return;
    this.pending = { rows: [], waiters: [] };
    const seqAtCut = this.writeSeq;
    this.inFlight = this.inFlight.then(() => this.insert(batch, seqAtCut));
  }

  private async insert(batch: Pending<T>, seq: number): Promise<void> {
    const attempts = this.opts.attempts ?? 5;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.opts.insert(batch.rows);
        this.flushedSeq = Math.max(this.flushedSeq, seq);
        for (const w of batch.waiters) w.resolve();
        return;
      } catch (err) {
        if (attempt + 1 >= attempts) {
          this.opts.log.error({ err, rows: batch.rows.length }, 'clickhouse insert failed; giving up on this batch');
          for (const w of batch.waiters) w.reject(err as Error);
          return;
        }
        this.opts.log.warn({ err, attempt }, 'clickhouse insert failed; retrying');
        await sleep(backoffMs(attempt, 100, 5_000));
      }
    }
  }
}
