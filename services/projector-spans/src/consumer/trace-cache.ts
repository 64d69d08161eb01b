// Recently touched traces' live rows, so that a trace's next spans roll up without a read. Bounded by
// the approximate bytes of the rows it holds (the span table's size estimate: text lengths plus a
// per-row allowance) and, secondarily, by span count; when either is exceeded, least recently used
// traces go until both are back under 90 %. An entry is evicted only once its rows are known to be in
// ClickHouse (its last write sequence is at or below the writer's flushed sequence), so a reload
// never misses buffered rows — the cache may therefore overshoot its bounds by what is not yet
// flushed (one batch per partition).
//
// Each trace is held as one JSON text, not as its row objects: a cache of 100,000 live rows is
// millions of objects that V8's collector marks again and again (bench:ingest: the GC threads were
// the largest row of the cost table, 50 µs per span, with the rows held as objects). A hit parses
// the text back (only traces continued by a later record pay that); a set serializes the trace.
import { spanRowBytes } from '@llm/span-table';
import type { TraceRows } from '../domain/trace-state.ts';
import type { SpanRow } from '../domain/span-row.ts';

export const DEFAULT_TRACE_CACHE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_TRACE_CACHE_SPANS = 100_000;

export interface TraceCacheLimits {
  /** Approximate bytes of the cached rows (default 256 MiB). */
  maxBytes?: number | undefined;
  /** Spans of the cached traces (default 100,000). */
  maxSpans?: number | undefined;
}

interface Entry {
  /** The trace's live rows as a JSON array. */
  text: string;
  /** Spans and bytes as counted when cached (the map is not expected to change, but the totals must
   * stay exact if it does). */
  spans: number;
  bytes: number;
  lastWriteSeq: number;
}

const LOW_WATER = 0.9;

export class TraceCache {
  private readonly entries = new Map<string, Entry>();
  private spans = 0;
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly maxSpans: number;
  // Rows are replaced, never mutated (trace-state spreads a new object for every change), so a row's
  // size is computed once however many batches re-cache its trace.
  private readonly rowBytes = new WeakMap<SpanRow, number>();

  constructor(limits: TraceCacheLimits = {}) {
    this.maxBytes = limits.maxBytes ?? DEFAULT_TRACE_CACHE_BYTES;
    this.maxSpans = limits.maxSpans ?? DEFAULT_TRACE_CACHE_SPANS;
  }

  get(key: string): TraceRows | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e); // LRU: most recent last
    const rows: TraceRows = new Map();
    for (const row of JSON.parse(e.text) as SpanRow[]) rows.set(row.span_id, row);
    return rows;
  }

  set(key: string, rows: TraceRows, writeSeq: number): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const bytes = this.sizeOf(rows);
    this.entries.set(key, { text: JSON.stringify([...rows.values()]), spans: rows.size, bytes, lastWriteSeq: writeSeq });
    this.spans += rows.size;
    this.bytes += bytes;
  }

  evict(flushedSeq: number): void {
    if (this.spans <= this.maxSpans && this.bytes <= this.maxBytes) return;
    for (const [k, e] of this.entries) {
      if (this.spans <= this.maxSpans * LOW_WATER && this.bytes <= this.maxBytes * LOW_WATER) break;
      if (e.lastWriteSeq > flushedSeq) continue;
      this.remove(k, e);
    }
  }

  clear(): void {
    this.entries.clear();
    this.spans = 0;
    this.bytes = 0;
  }

  /** Spans held. */
  get size(): number { return this.spans; }
  /** Approximate bytes held. */
  get sizeBytes(): number { return this.bytes; }
  /** Traces held. */
  get traces(): number { return this.entries.size; }

  private remove(key: string, e: Entry): void {
    this.entries.delete(key);
    this.spans -= e.spans;
    this.bytes -= e.bytes;
  }

  private sizeOf(rows: TraceRows): number {
    let n = 0;
    for (const row of rows.values()) {
      let b = this.rowBytes.get(row);
      if (b === undefined) this.rowBytes.set(row, (b = spanRowBytes(row)));
      n += b;
    }
    return n;
  }
}
