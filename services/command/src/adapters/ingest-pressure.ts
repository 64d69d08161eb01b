// Overload is explicit: before an ingest request is read, the command side checks two signals and
// refuses with 503 + Retry-After when either says the pipeline cannot take more — instead of
// acknowledging spans into a backlog that grows without bound.
//  - Projector lag: the age of the oldest spans-topic record the span projector's consumer group
//    has not committed, read from the broker (so it holds for a projector in another process). Between `lagSoftMs` and
//    `lagHardMs` a growing share of requests is refused (shedding rises with the lag, so the
//    accepted rate settles near what the projector sustains); above `lagHardMs` all are.
//  - Producer backlog: bytes of requests admitted and not yet acknowledged by Kafka. This bounds
//    the memory a burst can pin (bodies, decoded spans, encoded records) whatever Kafka's pace.
// Refusing costs almost nothing: the body is not read or decoded. Exporters retry 503 after the
// Retry-After they are given.
import type { LagSnapshot } from '@llm/kafka';
import { counter, gauge } from '@llm/metrics';

export interface IngestPressureOptions {
  /** The projector lag now (undefined: not watched, e.g. in unit tests). */
  lag?: () => LagSnapshot;
  /** Shedding starts above this lag (ms); 0 disables the lag signal. */
  lagSoftMs: number;
  /** Every request is refused above this lag (ms). */
  lagHardMs: number;
  /** A lag observation older than this is ignored (the broker did not answer). */
  staleMs: number;
  maxPendingBytes: number;
  now?: () => number;
  random?: () => number;
}

export interface Refusal { reason: 'projector_lag' | 'backlog'; retryAfterSeconds: number; message: string }

const refusedLag = counter('ingest_requests_refused_lag_total', 'Ingest requests refused with 503 because the span projector was too far behind.');
const refusedBacklog = counter('ingest_requests_refused_backlog_total', 'Ingest requests refused with 503 because too many bytes were waiting for Kafka.');

export class IngestPressure {
  private pending = 0;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly o: IngestPressureOptions) {
    this.now = o.now ?? Date.now;
    this.random = o.random ?? Math.random;
    gauge('ingest_pending_bytes', 'Bytes of admitted ingest requests not yet acknowledged by Kafka.', () => this.pending);
    gauge('ingest_projector_lag_ms', 'Estimated time the span projector needs to reach the end of the spans topic.', () => this.lagMs() ?? 0);
  }

  /** The lag to act on, or undefined when it is not watched or not known lately. */
  private lagMs(): number | undefined {
    const s = this.o.lag?.();
    if (!s || s.observedAt === 0 || this.now() - s.observedAt > this.o.staleMs) return undefined;
    return s.ms;
  }

  /** A refusal for the next request, or undefined to admit it. */
  check(): Refusal | undefined {
    if (this.pending >= this.o.maxPendingBytes) {
      refusedBacklog();
      return { reason: 'backlog', retryAfterSeconds: 1, message: 'The ingest pipeline is saturated (too much waiting to be queued). Retry later.' };
    }
    const lag = this.o.lagSoftMs > 0 ? this.lagMs() : undefined;
    if (lag === undefined || lag <= this.o.lagSoftMs) return undefined;
    const share = Math.min(1, (lag - this.o.lagSoftMs) / Math.max(1, this.o.lagHardMs - this.o.lagSoftMs));
    if (this.random() >= share) return undefined;
    refusedLag();
    return {
      reason: 'projector_lag', retryAfterSeconds: Math.max(1, Math.min(30, Math.ceil(lag / 1000))),
      message: `Span processing is ${Math.round(lag / 1000)} s behind; retry later.`,
    };
  }

  /** Counts `bytes` as waiting until the returned release is called (once). */
  hold(bytes: number): () => void {
    this.pending += bytes;
    let released = false;
    return () => { if (!released) { released = true; this.pending -= bytes; } };
  }
}
