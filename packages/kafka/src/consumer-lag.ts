// How far a consumer group is behind a topic, in records and as an estimated time: polled from the
// broker (the topic's end offsets and the group's committed offsets), so it works the same whether
// the consumer runs in this process or on another machine. The time, per partition, is how long its
// committed offset has not moved plus the records behind divided by the pace it keeps while it has
// a backlog (smoothed; unknown until it had one); the worst partition counts. A stopped consumer
// thus shows a lag that keeps growing rather than an unknown one.
import type { Admin } from './ports.ts';

export interface LagSnapshot {
  /** Records produced but not yet committed by the group, summed over partitions. */
  records: number;
  /** Estimated time until the group reaches today's end of the topic (0 when caught up). */
  ms: number;
  /** When the broker last answered (0 = never): a stale snapshot says nothing. */
  observedAt: number;
}

export interface LagMonitorOptions {
  admin: Pick<Admin, 'endOffsets' | 'committedOffsets'>;
  topic: string;
  groupId: string;
  pollMs: number;
  now?: () => number;
  /** Called when a poll fails (the last snapshot stays, marked by its observedAt). */
  onError?: (err: unknown) => void;
}

export interface LagMonitor {
  snapshot(): LagSnapshot;
  /** One poll (the timer calls it; tests call it directly). */
  poll(): Promise<void>;
  start(): void;
  stop(): void;
}

/** The span of commits a partition's pace is measured over. */
const PACE_WINDOW_MS = 5_000;

export function createLagMonitor(o: LagMonitorOptions): LagMonitor {
  const now = o.now ?? Date.now;
  let snap: LagSnapshot = { records: 0, ms: 0, observedAt: 0 };
  // Per partition: the committed offset last seen, when it last moved, and its pace (records/ms, smoothed).
  // Per partition: the committed offset last seen, when it last moved, its pace (records/ms) and the
  // commits seen during the current backlog (the pace is measured over PACE_WINDOW_MS of them, so
  // that whole-batch commits do not make it jump).
  const parts = new Map<number, { committed: bigint; movedAt: number; rate: number; backlog: Array<{ at: number; c: bigint }> }>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;

  async function poll(): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      const [end, committed] = await Promise.all([o.admin.endOffsets(o.topic), o.admin.committedOffsets(o.groupId, o.topic)]);
      const at = now();
      let records = 0;
      let worst = 0;
      for (const [p, e] of end) {
        // A partition the group never committed counts from its start (the group reads from the beginning).
        const c = committed.get(p) ?? 0n;
        const behind = Math.max(0, Number(e - c));
        records += behind;
        const prev = parts.get(p);
        const state = prev ?? { committed: c, movedAt: at, rate: 0, backlog: [] };
        if (prev && c > prev.committed) state.movedAt = at;
        state.committed = c;
        // The pace is learnt only while the group has a backlog: then what it commits is what it
        // can do (a trickle it kept up with says nothing about its capacity).
        if (behind > 0) {
          state.backlog.push({ at, c });
          while (state.backlog.length > 2 && at - state.backlog[1]!.at >= PACE_WINDOW_MS) state.backlog.shift();
          const first = state.backlog[0]!;
          if (at - first.at >= PACE_WINDOW_MS / 2) state.rate = Number(c - first.c) / (at - first.at);
        } else {
          state.backlog = [];
        }
        if (behind === 0) state.movedAt = at;
        parts.set(p, state);
        if (behind === 0) continue;
        // The group commits whole batches: the oldest waiting record has waited since the last
        // commit, and the records ahead of a new one drain at the partition's pace.
        const drain = state.rate > 0 ? behind / state.rate : 0;
        worst = Math.max(worst, drain + (at - state.movedAt));
      }
      snap = { records, ms: Math.min(worst, 86_400_000), observedAt: at };
    } catch (err) {
      o.onError?.(err);
    } finally {
      polling = false;
    }
  }

  return {
    snapshot: () => snap,
    poll,
    start() {
      if (timer) return;
      void poll();
      timer = setInterval(() => void poll(), o.pollMs);
      timer.unref();
    },
    stop() { if (timer) clearInterval(timer); timer = undefined; },
  };
}
