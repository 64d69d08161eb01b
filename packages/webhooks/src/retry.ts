// When a failed delivery is tried again (reference accounts §9.7 declares up to 5 retries and no
// backoff; we back off): exponential from `baseMs`, capped at `maxMs`, with jitter in the upper
// half so that receivers recovering from an outage are not hit by every retry at once, while the
// lower bound (half the step) stays predictable.
export interface RetryPolicy {
  /** Retries after the first attempt (attempts in all = 1 + maxRetries). */
  maxRetries: number;
  baseMs: number;
  maxMs: number;
}

/** The wait before retry number `retryNumber` (1 = the first retry): in [step/2, step], step = min(maxMs, base·2^(n−1)). */
export function retryDelayMs(retryNumber: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const n = Number.isFinite(retryNumber) ? Math.max(1, Math.floor(retryNumber)) : 1;
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(n - 1, 60));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(step / 2 + (step / 2) * r);
}

/** Whether the attempt just made (`attemptsMade` counts it) was the last one the policy allows. */
export function isFinalAttempt(attemptsMade: number, policy: RetryPolicy): boolean {
  return attemptsMade >= 1 + policy.maxRetries;
}
