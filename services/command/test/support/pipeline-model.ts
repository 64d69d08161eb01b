// A model of the ingest pipeline for the admission controller's tests (and for tuning it).
import { LAG_LADDER_MS, type LagSnapshot } from '@llm/kafka';
import { IngestPressure } from '../../src/ingest/adapters/ingest-pressure.ts';

/**
 * A simulated pipeline: requests of `requestBytes` offered at `offer` bytes/s; the projector takes
 * everything waiting at the start of a cycle, spends `overheadMs` plus bytes / `capacity` on it and
 * commits at the end; the lag monitor reads the age of the oldest uncommitted record every 500 ms,
 * rounded down to the broker ladder, as createLagMonitor does.
 */
export function simulate(o: { capacity: number; offer: number; seconds: number; overheadMs?: number; requestBytes?: number; lagTargetMs?: number; maxBatchBytes?: number }) {
  const stepMs = 5;
  const requestBytes = o.requestBytes ?? 150_000;
  const overheadMs = o.overheadMs ?? 300;
  let now = 0;
  let snap: LagSnapshot = { records: 0, ms: 0, observedAt: 0 };
  const p = new IngestPressure({ lagTargetMs: o.lagTargetMs ?? 2000, lagHardMs: 5000, staleMs: 5000, maxPendingBytes: 1 << 30, lag: () => snap, now: () => now });
  const topic: Array<{ at: number; bytes: number }> = []; // produced, not yet taken by the projector
  let inCycle: { records: Array<{ at: number; bytes: number }>; endsAt: number } | undefined;
  const waits: number[] = [];
  let committedBytes = 0;
  let produced = 0;
  let committed = 0;
  let committedInWindow = 0;
  let admittedInWindow = 0;
  let refused = 0;
  let offered = 0;
  let nextPoll = 0;
  const windowFrom = (o.seconds / 2) * 1000;
  for (; now < o.seconds * 1000; now += stepMs) {
    // Arrivals (deterministic, open loop).
    while (offered * requestBytes < (o.offer * now) / 1000) {
      offered++;
      if (p.check(requestBytes)) { refused++; continue; }
      topic.push({ at: now, bytes: requestBytes });
      produced++;
      if (now >= windowFrom) admittedInWindow += requestBytes;
    }
    // The projector.
    if (inCycle && now >= inCycle.endsAt) {
      for (const r of inCycle.records) { waits.push(now - r.at); committedBytes += r.bytes; committed++; if (now >= windowFrom) committedInWindow += r.bytes; }
      inCycle = undefined;
    }
    if (!inCycle && topic.length) {
      // A batch is what the consumer has fetched: bounded, as the per-partition fetch size bounds it.
      let n = 0;
      for (let taken = 0; n < topic.length && taken < (o.maxBatchBytes ?? 8_000_000); n++) taken += topic[n]!.bytes;
      const records = topic.splice(0, n);
      const bytes = records.reduce((n, r) => n + r.bytes, 0);
      inCycle = { records, endsAt: now + overheadMs + (bytes / o.capacity) * 1000 };
    }
    // The lag monitor.
    if (now >= nextPoll) {
      nextPoll = now + 500;
      const oldest = inCycle?.records[0]?.at ?? topic[0]?.at;
      const age = oldest === undefined ? 0 : now - oldest;
      let ms = 0;
      for (const step of LAG_LADDER_MS) if (age > step) ms = step;
      snap = { records: oldest === undefined ? 0 : 1, ms, observedAt: now, produced, committed };
    }
  }
  const window = (o.seconds * 1000 - windowFrom) / 1000;
  const sorted = waits.filter((_, i) => i >= waits.length / 2).sort((a, b) => a - b);
  return {
    goodput: committedInWindow / window,
    admitted: admittedInWindow / window,
    refused,
    p99SimulatedWaitMs: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
    committedBytes,
  };
}

