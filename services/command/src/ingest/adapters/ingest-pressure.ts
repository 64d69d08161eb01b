// Overload is explicit: before an ingest request is read, the command side asks two questions and
// refuses with 503 + Retry-After when either says the pipeline cannot take more — instead of
// acknowledging spans into a backlog that grows without bound.
//  - Projector lag, held at a setpoint. The lag is the age of the oldest spans-topic record the span
//    projector's consumer group has not committed, read from the broker (so it holds for a projector
//    in another process). A controller turns it into an admitted rate: while the lag is at or under
//    `lagTargetMs` the rate limit rises (and is lifted once the offer stays well under it); each time
//    the lag is above the setpoint the limit is cut to a share of what was admitted lately, at most
//    once per reaction time (the lag needs that long to show a cut). Increase by a few per cent per
//    step, decrease by 15 %: the admitted rate settles just under what the projector sustains, so an
//    overload keeps the pipeline's capacity instead of refusing a share by a threshold that the
//    projector's own batch cycle crosses. Above `lagHardMs` every request is refused (a projector
//    stopped or stalled).
//  - Producer backlog: bytes of requests admitted and not yet acknowledged by Kafka. This bounds
//    the memory a burst can pin (bodies, decoded spans, encoded records) whatever Kafka's pace.
// Refusing costs almost nothing: the body is not read or decoded, nothing is logged per refusal
// (a counter per reason). Exporters retry 503 after the Retry-After they are given.
import type { LagSnapshot } from '@llm/kafka';
import { counter, gauge } from '@llm/metrics';

export interface IngestPressureOptions {
  /** The projector lag now (undefined: not watched, e.g. in unit tests). */
  lag?: () => LagSnapshot;
  /** Tells the lag watch that ingest is arriving (it polls slower while idle). */
  touch?: () => void;
  /** The lag (ms) the controller holds the projector at; 0 disables the lag signal. */
  lagTargetMs: number;
  /** Every request is refused above this lag (ms). */
  lagHardMs: number;
  /** A lag observation older than this is ignored (the broker did not answer). */
  staleMs: number;
  maxPendingBytes: number;
  now?: () => number;
}

export interface Refusal { reason: 'projector_lag' | 'rate' | 'backlog'; retryAfterSeconds: number; message: string }

const refusedLag = counter('ingest_requests_refused_lag_total', 'Ingest requests refused with 503 because the span projector was too far behind.');
const refusedRate = counter('ingest_requests_refused_rate_total', 'Ingest requests refused with 503 because the admitted rate was held at what the span projector sustains.');
const refusedBacklog = counter('ingest_requests_refused_backlog_total', 'Ingest requests refused with 503 because too many bytes were waiting for Kafka.');

/** The controller's constants: tuned on the model in test/ingest-pressure-model.test.ts and on bench:ingest. */
export const CONTROL = {
  /** Share of the lately admitted rate kept after a cut when the drain is not known. */
  decrease: 0.85,
  /** One cut keeps at least this share of the lately admitted rate. */
  deepestCut: 0.25,
  /** Share of the measured drain held after a cut: the rest lets the backlog drain. */
  drainMargin: 0.9,
  /** The window the drain is measured over: twice the lag, within these bounds (ms). */
  windowMinMs: 3_000,
  windowMaxMs: 20_000,
  /** Growth of the limit per second while the lag is at or under the setpoint. */
  increasePerSecond: 0.06,
  /** The limit is lifted once the offer stays under limit / liftRatio with no refusal for liftAfterMs. */
  liftRatio: 2,
  liftAfterMs: 10_000,
  /** Weight of the newest step in the admitted-rate average. */
  ewma: 0.3,
  /** Floor of the limit (bytes/s): a cut never starves ingest entirely. */
  minBytesPerSecond: 64 * 1024,
  /** Burst allowed above the limit, in seconds of it (and at least one average request). */
  burstSeconds: 0.5,
} as const;

export class IngestPressure {
  private pending = 0;
  private readonly now: () => number;
  /** Admitted rate limit in bytes/s; undefined = open. */
  private limit: number | undefined;
  private tokens = 0;
  private tokensAt = 0;
  private admittedTotal = 0;
  private admittedAtStep = 0;
  private admittedRate: number | undefined;
  /** This process's admitted bytes per record produced on the topic (its share of the inflow, in bytes). */
  private bytesPerRecord: number | undefined;
  private readonly history: Array<{ at: number; produced: number | undefined; committed: number | undefined; admitted: number }> = [];
  private stepAt: number;
  private lastSnapshotAt = 0;
  private lastCutAt = -Infinity;
  private lastRefusalAt = -Infinity;
  private avgRequestBytes = 64 * 1024;

  constructor(private readonly o: IngestPressureOptions) {
    this.now = o.now ?? Date.now;
    this.stepAt = this.now();
    gauge('ingest_pending_bytes', 'Bytes of admitted ingest requests not yet acknowledged by Kafka.', () => this.pending);
    gauge('ingest_projector_lag_ms', 'Age of the oldest spans-topic record the span projector has not committed.', () => this.lagMs() ?? 0);
    gauge('ingest_admitted_rate_limit_bytes', 'Admitted ingest rate (bytes/s) the overload controller holds; 0 while open.', () => this.limit ?? 0);
  }

  /** The lag to act on, or undefined when it is not watched or not known lately. */
  private lagMs(): number | undefined {
    const s = this.o.lag?.();
    if (!s || s.observedAt === 0 || this.now() - s.observedAt > this.o.staleMs) return undefined;
    return s.ms;
  }

  /** One control step per new lag observation. */
  private control(lag: LagSnapshot, now: number): void {
    const dt = Math.max(0.05, (now - this.stepAt) / 1000);
    const rate = (this.admittedTotal - this.admittedAtStep) / dt;
    this.admittedRate = this.admittedRate === undefined ? rate : this.admittedRate + CONTROL.ewma * (rate - this.admittedRate);
    this.admittedAtStep = this.admittedTotal;
    this.stepAt = now;
    const prev = this.history[this.history.length - 1];
    if (prev?.produced !== undefined && lag.produced !== undefined && lag.produced > prev.produced && this.admittedTotal > prev.admitted) {
      const perRecord = (this.admittedTotal - prev.admitted) / (lag.produced - prev.produced);
      this.bytesPerRecord = this.bytesPerRecord === undefined ? perRecord : this.bytesPerRecord + CONTROL.ewma * (perRecord - this.bytesPerRecord);
    }
    this.history.push({ at: now, produced: lag.produced, committed: lag.committed, admitted: this.admittedTotal });
    while (this.history.length > 2 && now - this.history[1]!.at > CONTROL.windowMaxMs) this.history.shift();
    const window = Math.min(CONTROL.windowMaxMs, Math.max(CONTROL.windowMinMs, 2 * lag.ms));
    // A reading of X on the ladder means a record older than X is waiting: at the setpoint is above it.
    if (lag.ms >= this.o.lagTargetMs) {
      if (now - this.lastCutAt < window) return;
      this.setLimit(this.cutTo(now, window), now);
      this.lastCutAt = now;
    } else if (this.limit !== undefined) {
      const grown = this.limit * (1 + CONTROL.increasePerSecond * dt);
      // The offer stays well under the limit and nothing was refused lately: nothing to hold any more.
      if (now - this.lastRefusalAt > CONTROL.liftAfterMs && grown > CONTROL.liftRatio * Math.max(this.admittedRate, CONTROL.minBytesPerSecond)) this.limit = undefined;
      else this.setLimit(grown, now);
    }
  }

  /**
   * The rate to hold after a lag above the setpoint: the projector's drain over the window (records
   * it committed per second, from the broker) in this process's bytes — bytes it admitted per record
   * produced on the whole topic, so replicas sharing the load each get their part — with a margin
   * that lets the backlog drain. Without offsets to go by, a fixed cut of what was admitted.
   */
  private cutTo(now: number, windowMs: number): number {
    let from = this.history[0]!;
    for (const h of this.history) { if (now - h.at >= windowMs) from = h; else break; }
    const to = this.history[this.history.length - 1]!;
    const seconds = (to.at - from.at) / 1000;
    if (seconds > 0 && this.bytesPerRecord !== undefined && from.committed !== undefined && to.committed !== undefined) {
      const drain = ((to.committed - from.committed) / seconds) * this.bytesPerRecord;
      // A window in which the projector stalled says little about what it sustains: one cut goes no
      // deeper than `deepestCut` of what was admitted (the hard lag bound refuses meanwhile).
      const floor = (this.admittedRate ?? 0) * CONTROL.deepestCut;
      return Math.max(CONTROL.minBytesPerSecond, floor, drain * CONTROL.drainMargin);
    }
    const admitted = seconds > 0 ? (to.admitted - from.admitted) / seconds : this.admittedRate ?? 0;
    return Math.max(CONTROL.minBytesPerSecond, Math.min(this.limit ?? Infinity, admitted) * CONTROL.decrease);
  }

  private setLimit(limit: number, now: number): void {
    this.refill(now);
    this.limit = limit;
    this.tokens = Math.min(this.tokens, this.burst());
  }

  private burst(): number {
    return Math.max(this.avgRequestBytes, (this.limit ?? 0) * CONTROL.burstSeconds);
  }

  private refill(now: number): void {
    if (this.limit !== undefined) this.tokens = Math.min(this.burst(), this.tokens + (this.limit * (now - this.tokensAt)) / 1000);
    this.tokensAt = now;
  }

  /**
   * A refusal for the next request, or undefined to admit it. `bytes` is the request's declared
   * size (Content-Length), when it has one; an admitted request is charged with it.
   */
  check(bytes?: number): Refusal | undefined {
    if (this.pending >= this.o.maxPendingBytes) {
      refusedBacklog();
      return { reason: 'backlog', retryAfterSeconds: 1, message: 'The ingest pipeline is saturated (too much waiting to be queued). Retry later.' };
    }
    const size = bytes !== undefined && Number.isFinite(bytes) && bytes > 0 ? bytes : this.avgRequestBytes;
    const now = this.now();
    if (this.o.lagTargetMs > 0) {
      this.o.touch?.();
      const snap = this.o.lag?.();
      const lag = this.lagMs();
      if (snap && lag !== undefined) {
        if (snap.observedAt !== this.lastSnapshotAt) { this.lastSnapshotAt = snap.observedAt; this.control(snap, now); }
        if (lag >= this.o.lagHardMs) {
          refusedLag();
          this.lastRefusalAt = now;
          return {
            reason: 'projector_lag', retryAfterSeconds: Math.max(1, Math.min(30, Math.ceil(lag / 1000))),
            message: `Span processing is ${Math.round(lag / 1000)} s behind; retry later.`,
          };
        }
      } else if (lag === undefined) {
        // Not known lately (the broker did not answer): the backlog bound still holds; no rate is kept.
        this.limit = undefined;
      }
      if (this.limit !== undefined) {
        this.refill(now);
        // A request larger than the whole bucket goes when the bucket is full (and leaves a debt).
        if (this.tokens < size && this.tokens < this.burst()) {
          refusedRate();
          this.lastRefusalAt = now;
          return { reason: 'rate', retryAfterSeconds: 1, message: 'Span processing is at capacity; retry later.' };
        }
        this.tokens -= size;
      }
    }
    this.admittedTotal += size;
    this.avgRequestBytes += 0.05 * (size - this.avgRequestBytes);
    return undefined;
  }

  /** Counts `bytes` as waiting until the returned release is called (once). */
  hold(bytes: number): () => void {
    this.pending += bytes;
    let released = false;
    return () => { if (!released) { released = true; this.pending -= bytes; } };
  }

  /** The admitted rate limit (bytes/s) held now, undefined while open: for metrics and tests. */
  rateLimit(): number | undefined {
    return this.limit;
  }
}
