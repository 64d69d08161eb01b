// The one consumer loop policy every projector uses (STYLE.md → Errors → Consumers): a batch that
// fails for a transient reason is retried whole, with capped backoff, and never skipped; a batch that
// fails deterministically is split in halves until the record that can never be applied is alone,
// and that record is set aside (dead letter or recorded rejection) so the ones behind it go on.
// Order is kept: the halves are applied first, then second.
import { backoffMs, failureReason, sleep, type FailureClassifier } from '@llm/errors';
import type { Consumer, IncomingBatch, IncomingRecord } from './ports.ts';

export interface ApplyPolicy {
  /** Applies the records of one partition in order, all or nothing. */
  apply(batch: IncomingBatch): Promise<void>;
  classify: FailureClassifier;
  /** Sets one record aside with its reason; must itself succeed (it is retried while transient). */
  setAside(record: IncomingRecord, reason: string, batch: IncomingBatch): Promise<void>;
  /** True once the consumer is stopping: give up retrying and let the batch be re-delivered. */
  stopping(): boolean;
  onRetry?(err: unknown, attempt: number, batch: IncomingBatch): void;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Kept by the consumer across batches. When many records in a row are set aside and none applies
   * in between, the "deterministic" verdict is more likely a systemic fault (a schema this version
   * does not expect, a bug) than that many bad records: each further set-aside then waits
   * `breakerPauseMs` first, so the damage stays small while the logs and metrics alert an operator.
   */
  breaker?: SetAsideBreaker;
}

export interface SetAsideBreaker { consecutive: number; threshold: number; pauseMs: number; onTrip?(reason: string): void }

export const setAsideBreaker = (threshold = 20, pauseMs = 30_000, onTrip?: (reason: string) => void): SetAsideBreaker => ({ consecutive: 0, threshold, pauseMs, ...(onTrip ? { onTrip } : {}) });

export async function applyWithPolicy(batch: IncomingBatch, policy: ApplyPolicy): Promise<void> {
  if (batch.records.length === 0) return;
  for (let attempt = 0; ; attempt++) {
    let err: unknown;
    try {
      await policy.apply(batch);
      if (policy.breaker) policy.breaker.consecutive = 0;
      return;
    } catch (e) { err = e; }
    if (policy.stopping()) throw err;
    if (policy.classify(err) === 'deterministic') {
      if (batch.records.length === 1) {
        const b = policy.breaker;
        if (b && ++b.consecutive > b.threshold) {
          b.onTrip?.(failureReason(err));
          for (let waited = 0; waited < b.pauseMs; waited += 500) {
            if (policy.stopping()) throw err;
            await sleep(Math.min(500, b.pauseMs - waited));
          }
        }
        await retryTransient(() => policy.setAside(batch.records[0]!, failureReason(err), batch), policy, batch);
        return;
      }
      const mid = Math.ceil(batch.records.length / 2);
      await applyWithPolicy({ ...batch, records: batch.records.slice(0, mid) }, policy);
      await applyWithPolicy({ ...batch, records: batch.records.slice(mid) }, policy);
      return;
    }
    policy.onRetry?.(err, attempt, batch);
    await sleep(backoffMs(attempt, policy.baseDelayMs ?? 200, policy.maxDelayMs ?? 10_000));
  }
}

async function retryTransient(fn: () => Promise<void>, policy: ApplyPolicy, batch: IncomingBatch): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try { await fn(); return; } catch (err) {
      if (policy.stopping()) throw err;
      policy.onRetry?.(err, attempt, batch);
      await sleep(backoffMs(attempt, policy.baseDelayMs ?? 200, policy.maxDelayMs ?? 10_000));
    }
  }
}

/**
 * A consumer run under the policy: `start` subscribes with applyWithPolicy, `stop` makes pending
 * retries give up (the batch is re-delivered later) and stops the consumer. Every projector's loop.
 */
export function runWithPolicy(consumer: Consumer, policy: Omit<ApplyPolicy, 'stopping'>): { start(): Promise<void>; stop(): Promise<void> } {
  let stopping = false;
  return {
    start() {
      stopping = false;
      return consumer.start((batch) => applyWithPolicy(batch, { ...policy, stopping: () => stopping }));
    },
    async stop() { stopping = true; await consumer.stop(); },
  };
}
