// How far a consumer group is behind a topic: records not yet committed, and the age of the oldest
// of them — the time a record produced now would wait, the figure ingest admission acts on. Both
// are read from the broker (end offsets, the group's committed offsets, and offsets by record
// timestamp), so they hold whether the consumer runs in this process or on another machine. The
// age is found on a ladder of steps: "is there a record older than X still waiting?" is one
// ListOffsets-by-time request (the first offset stamped after now − X, against the committed one),
// and a binary search over the ladder asks it three or four times per poll. A stopped consumer
// shows an age that keeps growing, never an unknown one.
import type { Admin } from './ports.ts';

export interface LagSnapshot {
  /** Records produced but not yet committed by the group, summed over partitions. */
  records: number;
  /** Age of the oldest record waiting for the group (a step of the ladder: a lower bound; 0 when caught up). */
  ms: number;
  /** When the broker last answered (0 = never): a stale snapshot says nothing. */
  observedAt: number;
  /**
   * End offsets and the group's committed offsets, each summed over partitions: their growth between
   * two snapshots is what was produced and what the group finished in between (the drain rate an
   * admission controller matches).
   */
  produced?: number;
  committed?: number;
}

export interface LagMonitorOptions {
  admin: Pick<Admin, 'endOffsets' | 'committedOffsets' | 'offsetsAfter'>;
  topic: string;
  groupId: string;
  pollMs: number;
  /**
   * While nothing waits for the group and nobody asked (`touch`), the broker is asked this often
   * instead (default: pollMs): an idle stack does not poll its broker twice a second.
   */
  idlePollMs?: number;
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
  /** Someone is about to act on the lag: poll at the busy pace (now, if the last poll is older than pollMs). */
  touch(): void;
}

/** The ages asked about (ms): fine where admission thresholds usually sit, coarse beyond. */
export const LAG_LADDER_MS = [250, 500, 750, 1000, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000, 12_000, 16_000, 32_000, 64_000, 128_000, 300_000] as const;

export function createLagMonitor(o: LagMonitorOptions): LagMonitor {
  const now = o.now ?? Date.now;
  let snap: LagSnapshot = { records: 0, ms: 0, observedAt: 0 };
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  let running = false;
  let touched = false;
  let lastPollAt = 0;

  async function poll(): Promise<void> {
    if (polling) return;
    polling = true;
    touched = false;
    try {
      const at = now();
      lastPollAt = at;
      const [end, committed] = await Promise.all([o.admin.endOffsets(o.topic), o.admin.committedOffsets(o.groupId, o.topic)]);
      // A partition the group never committed counts from its start (the group reads from the beginning).
      const waiting = new Map<number, bigint>();
      let records = 0;
      let produced = 0;
      let done = 0;
      for (const [p, e] of end) {
        const c = committed.get(p) ?? 0n;
        produced += Number(e);
        done += Number(c < e ? c : e);
        if (e > c) { waiting.set(p, c); records += Number(e - c); }
      }
      let ms = 0;
      if (records > 0) {
        // Is a record stamped before `at - age` still waiting on some partition?
        const olderThan = async (age: number): Promise<boolean> => {
          const after = await o.admin.offsetsAfter(o.topic, at - age);
          for (const [p, c] of waiting) {
            const first = after.get(p);
            const firstNewer = first === undefined || first < 0n ? end.get(p)! : first;
            if (c < firstNewer) return true;
          }
          return false;
        };
        let lo = -1; // LAG_LADDER_MS[lo] is known to be exceeded (-1: none)
        let hi: number = LAG_LADDER_MS.length; // LAG_LADDER_MS[hi] is known not to be
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          if (await olderThan(LAG_LADDER_MS[mid]!)) lo = mid; else hi = mid;
        }
        ms = lo < 0 ? 0 : LAG_LADDER_MS[lo]!;
      }
      snap = { records, ms, observedAt: at, produced, committed: done };
    } catch (err) {
      o.onError?.(err);
    } finally {
      polling = false;
    }
  }

  function schedule(): void {
    if (!running) return;
    const idle = snap.records === 0 && !touched;
    timer = setTimeout(() => { void poll().finally(schedule); }, idle ? o.idlePollMs ?? o.pollMs : o.pollMs);
    timer.unref();
  }

  return {
    snapshot: () => snap,
    poll,
    start() {
      if (running) return;
      running = true;
      void poll().finally(schedule);
    },
    stop() { running = false; if (timer) clearTimeout(timer); timer = undefined; },
    touch() {
      if (touched) return;
      touched = true;
      if (running && !polling && now() - lastPollAt >= o.pollMs) {
        if (timer) clearTimeout(timer);
        void poll().finally(schedule);
      }
    },
  };
}
