// How far a consumer group is behind a topic, in records and as an estimated time: polled from the
// broker (the topic's end offsets and the group's committed offsets), so it works the same whether
// the consumer runs in this process or on another machine. The time is the record lag divided by
// the rate at which the group's committed offsets advance (smoothed); when the group makes no
// progress while behind, it is at least the time since it last did — a stopped consumer shows a
// lag that keeps growing rather than an unknown one.
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

const sum = (m: Map<number, bigint>): number => Number([...m.values()].reduce((a, b) => a + b, 0n));

export function createLagMonitor(o: LagMonitorOptions): LagMonitor {
  const now = o.now ?? Date.now;
  let snap: LagSnapshot = { records: 0, ms: 0, observedAt: 0 };
  let last: { at: number; committed: number } | undefined;
  let rate = 0; // committed records per ms, smoothed
  let lastProgressAt = now();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;

  async function poll(): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      const [end, committed] = await Promise.all([o.admin.endOffsets(o.topic), o.admin.committedOffsets(o.groupId, o.topic)]);
      const at = now();
      // A partition the group never committed counts from its start (the group reads from the beginning).
      let lag = 0;
      for (const [p, e] of end) lag += Math.max(0, Number(e - (committed.get(p) ?? 0n)));
      const done = sum(committed);
      if (last && at > last.at) {
        const advanced = done - last.committed;
        if (advanced > 0) lastProgressAt = at;
        const instant = Math.max(0, advanced) / (at - last.at);
        rate = rate === 0 ? instant : rate * 0.6 + instant * 0.4;
      }
      last = { at, committed: done };
      if (lag === 0) lastProgressAt = at;
      const estimated = lag === 0 ? 0 : rate > 0 ? lag / rate : Number.POSITIVE_INFINITY;
      const stalled = lag === 0 ? 0 : at - lastProgressAt;
      snap = { records: lag, ms: Math.min(Math.max(estimated === Number.POSITIVE_INFINITY ? stalled : estimated, stalled), 86_400_000), observedAt: at };
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
