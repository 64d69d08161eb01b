// Bucket states of this replica, in memory and bounded. A bucket whose backlog has drained (its TAT
// is past) is the same as no bucket, so it can be dropped at any time: a sweep drops them all at
// most once per `sweepEveryMs`. Above `maxKeys` the least recently updated buckets go first (the
// map keeps update order: an update re-inserts its key). Evicting a bucket that had not recovered
// yet gives that client a fresh bucket, the price of a hard bound when more distinct organizations
// are active within one recovery window than the map holds.
import { recoveredAt, type GcraState } from './gcra.ts';

export interface BucketStoreOptions {
  /** Default 100,000 buckets. */
  maxKeys?: number | undefined;
  /** Default 60 s. */
  sweepEveryMs?: number | undefined;
}

export const DEFAULT_MAX_KEYS = 100_000;

export class BucketStore {
  private readonly states = new Map<string, GcraState>();
  private readonly maxKeys: number;
  private readonly sweepEveryMs: number;
  private lastSweep = -Infinity;

  constructor(opts: BucketStoreOptions = {}) {
    this.maxKeys = opts.maxKeys ?? DEFAULT_MAX_KEYS;
    this.sweepEveryMs = opts.sweepEveryMs ?? 60_000;
    if (!Number.isInteger(this.maxKeys) || this.maxKeys < 1) throw new Error(`maxKeys must be an integer >= 1 (got ${this.maxKeys})`);
  }

  get size(): number {
    return this.states.size;
  }

  get(key: string): GcraState | undefined {
    return this.states.get(key);
  }

  /** Stores a bucket's state (as the most recently updated), then keeps the map within bounds. */
  set(key: string, state: GcraState, nowMs: number): void {
    this.states.delete(key);
    this.states.set(key, state);
    if (nowMs - this.lastSweep >= this.sweepEveryMs) this.sweep(nowMs);
    // In batches of 1% of the cap: each eviction walks the map from its head.
    if (this.states.size > this.maxKeys) this.evictOldest(this.states.size - this.maxKeys + Math.floor(this.maxKeys / 100));
  }

  /** Drops every bucket that has fully recovered by `nowMs`; returns how many. */
  sweep(nowMs: number): number {
    this.lastSweep = nowMs;
    let dropped = 0;
    for (const [k, s] of this.states) {
      if (recoveredAt(s) <= nowMs) {
        this.states.delete(k);
        dropped++;
      }
    }
    return dropped;
  }

  private evictOldest(n: number): void {
    let left = n;
    for (const k of this.states.keys()) {
      if (left-- <= 0) break;
      this.states.delete(k);
    }
  }
}
