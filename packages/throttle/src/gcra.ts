// Pure bucket math: the generic cell rate algorithm (GCRA) in its continuous-state form.
//
// The virtual-scheduling form keeps a theoretical arrival time (TAT) and admits a request at `now`
// iff max(TAT, now) + T - τ <= now. The continuous-state form used here keeps the same thing as
// `lastMs` (the last admitted request) and `backlogMs` (TAT - lastMs): TAT = lastMs + backlogMs.
// Both admit exactly the same requests; this one keeps the backlog a small number (at most τ)
// instead of an epoch timestamp, so a burst of thousands of `+ T` steps does not drift in floating
// point. Read as a token bucket, backlog / T is the number of tokens taken out of a bucket of
// `capacity` tokens that refills one token every T: that is also what `tbra` asks for, so both
// algorithms run this code.
//
// With T = 60000 / rate ms and τ = capacity × T, `capacity` requests pass at once from idle and
// then one every T.

export interface GcraParams {
  /** T: milliseconds between two requests at the sustained rate (60000 / tokens per minute). */
  emissionIntervalMs: number;
  /** τ: how far ahead of the sustained rate a client may be (capacity × T). */
  burstToleranceMs: number;
}

export interface GcraState {
  /** When the last admitted request arrived (ms, the clock of the caller). */
  lastMs: number;
  /** TAT - lastMs at that moment: the backlog the bucket still had to drain (ms, >= 0). */
  backlogMs: number;
}

export interface GcraDecision {
  allowed: boolean;
  /** Requests that could still pass right now after this one (0 when denied). */
  remaining: number;
  /** How long until this request would pass (0 when allowed). */
  retryAfterMs: number;
  /** The state to store if the request is admitted; the input state when denied (nothing to write). */
  state: GcraState | undefined;
}

/** Slack for the floating-point sums: a millionth of a millisecond. */
const EPS_MS = 1e-6;

/** The backlog left of `state` at `nowMs` (0 for an unknown or fully recovered bucket). */
export function backlogAt(state: GcraState | undefined, nowMs: number): number {
  if (!state) return 0;
  // A clock that steps back never refills the bucket.
  const elapsed = Math.max(0, nowMs - state.lastMs);
  return Math.max(0, state.backlogMs - elapsed);
}

/** The moment the bucket is full again (the TAT): a state at or before it can be forgotten. */
export const recoveredAt = (state: GcraState): number => state.lastMs + state.backlogMs;

/** Decides one request (cost 1) against a bucket. Pure: the caller stores `state` if it commits. */
export function gcra(state: GcraState | undefined, nowMs: number, p: GcraParams): GcraDecision {
  const t = p.emissionIntervalMs;
  const tau = p.burstToleranceMs;
  const next = backlogAt(state, nowMs) + t;
  if (next > tau + EPS_MS) {
    return { allowed: false, remaining: 0, retryAfterMs: next - tau, state };
  }
  const remaining = Math.max(0, Math.floor((tau - next) / t + 1e-9));
  return {
    allowed: true,
    remaining,
    retryAfterMs: 0,
    state: { lastMs: state ? Math.max(nowMs, state.lastMs) : nowMs, backlogMs: next },
  };
}

/** The GCRA parameters of a bucket of `capacity` tokens refilled at `ratePerMinute`. */
export function gcraParams(capacity: number, ratePerMinute: number): GcraParams {
  const t = 60_000 / ratePerMinute;
  return { emissionIntervalMs: t, burstToleranceMs: capacity * t };
}
