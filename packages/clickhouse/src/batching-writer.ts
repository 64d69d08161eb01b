// A batching writer: rows are buffered and inserted when the buffer reaches `maxRows` or
// `maxDelayMs` after the first buffered row, whichever comes first. `write()` resolves only once its
// rows are in ClickHouse (so the consumer commits offsets after that). Several partitions' batches
// share one insert; when ClickHouse refuses the data of a shared insert (a deterministic failure),
// each caller's rows are inserted on their own, so only the caller whose rows were refused fails.
// Transient failures get bounded attempts with backoff here; the consumer's policy retries beyond.
// `flush()` drains on shutdown.
import { backoffMs, sleep, type FailureClassifier } from '@llm/errors';
import type { Logger } from '@llm/logging';

interface Group<T> {
  rows: T[];
  resolve: () => void;
  reject: (e: Error) => void;
}

export interface BatchingWriterOptions<T> {
  /** Writes one batch (all or nothing from the caller's point of view; retried as a whole). */
  insert: (rows: T[]) => Promise<void>;
  /** Tells a refusal of the rows themselves from the store being away or full. */
  classify: FailureClassifier;
  maxRows?: number;
  maxDelayMs?: number;
  attempts?: number;
  log: Logger;
}

export class BatchingWriter<T extends object> {
  private pending: Group<T>[] = [];
  private pendingRows = 0;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  /** Count of completed flushes; lets callers know whether their rows reached the table. */
  flushedSeq = 0;
  writeSeq = 0;

  constructor(private readonly opts: BatchingWriterOptions<T>) {}

  write(rows: T[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ rows, resolve, reject });
      this.pendingRows += rows.length;
      this.writeSeq++;
      if (this.pendingRows >= (this.opts.maxRows ?? 50_000)) this.flushSoon(0);
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
    const groups = this.pending;
    if (groups.length === 0) return;
    this.pending = [];
    this.pendingRows = 0;
    const seqAtCut = this.writeSeq;
    this.inFlight = this.inFlight.then(() => this.insert(groups, seqAtCut));
  }

  private async insert(groups: Group<T>[], seq: number): Promise<void> {
    const attempts = this.opts.attempts ?? 5;
    const rows = groups.length === 1 ? groups[0]!.rows : groups.flatMap((g) => g.rows);
    for (let attempt = 0; ; attempt++) {
      try {
        await this.opts.insert(rows);
        this.flushedSeq = Math.max(this.flushedSeq, seq);
        for (const g of groups) g.resolve();
        return;
      } catch (err) {
        if (this.opts.classify(err) === 'deterministic') {
          if (groups.length > 1) await this.insertApart(groups, seq);
          else groups[0]!.reject(err as Error);
          return;
        }
        if (attempt + 1 >= attempts) {
          this.opts.log.warn({ err, rows: rows.length }, 'clickhouse insert failed; handing the batch back for a later retry');
          for (const g of groups) g.reject(err as Error);
          return;
        }
        this.opts.log.warn({ err, attempt }, 'clickhouse insert failed; retrying');
        await sleep(backoffMs(attempt, 100, 5_000));
      }
    }
  }

  /** One caller's rows at a time: the refused ones fail alone, the others are written. */
  private async insertApart(groups: Group<T>[], seq: number): Promise<void> {
    for (const g of groups) {
      try {
        await this.opts.insert(g.rows);
        g.resolve();
      } catch (err) {
        g.reject(err as Error);
      }
    }
    this.flushedSeq = Math.max(this.flushedSeq, seq);
  }
}
