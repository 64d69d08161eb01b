// Recently touched traces' live rows, so that a trace's next spans roll up without a read. Bounded by
// span count; an entry is evicted only once its rows are known to be in ClickHouse (its last write
// sequence is at or below the writer's flushed sequence), so a reload never misses buffered rows.
import type { TraceRows } from '../domain/trace-state.ts';

interface Entry {
  rows: TraceRows;
  lastWriteSeq: number;
}

export class TraceCache {
  private readonly entries = new Map<string, Entry>();
  private spans = 0;

  constructor(private readonly maxSpans: number) {}

  get(key: string): TraceRows | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e); // LRU: most recent last
    return e.rows;
  }

  set(key: string, rows: TraceRows, writeSeq: number): void {
    const old = this.entries.get(key);
    if (old) { this.spans -= old.rows.size; this.entries.delete(key); }
    this.entries.set(key, { rows, lastWriteSeq: writeSeq });
    this.spans += rows.size;
  }

  evict(flushedSeq: number): void {
    if (this.spans <= this.maxSpans) return;
    for (const [k, e] of this.entries) {
      if (this.spans <= this.maxSpans * 0.9) break;
      if (e.lastWriteSeq > flushedSeq) continue;
      this.entries.delete(k);
      this.spans -= e.rows.size;
    }
  }

  clear(): void {
    this.entries.clear();
    this.spans = 0;
  }

  get size(): number { return this.spans; }
}
