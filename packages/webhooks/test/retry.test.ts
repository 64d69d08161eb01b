import { describe, expect, it } from 'vitest';
import { isFinalAttempt, retryDelayMs, type RetryPolicy } from '../src/retry.ts';
import { retryPolicyFromEnv, webhookEnv } from '../src/webhook-env.ts';

const policy: RetryPolicy = { maxRetries: 5, baseMs: 1000, maxMs: 300_000 };

describe('retryDelayMs', () => {
  it('when jitter is at its ends, then the wait is half the step or the whole step', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, policy, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, policy, () => 1))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('when the step passes the cap, then the cap holds, even for absurd retry numbers', () => {
    expect(retryDelayMs(20, policy, () => 1)).toBe(300_000);
    expect(retryDelayMs(20, policy, () => 0)).toBe(150_000);
    expect(retryDelayMs(10_000, policy, () => 0.5)).toBe(225_000);
    expect(retryDelayMs(0, policy, () => 0)).toBe(500);
  });

  it('when random, then always within [step/2, step]', () => {
    for (let i = 0; i < 1000; i++) {
      const d = retryDelayMs(3, policy);
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(4000);
    }
  });
});

describe('isFinalAttempt', () => {
  it('when 1 + maxRetries attempts were made, then no further attempt is allowed', () => {
    expect(isFinalAttempt(1, policy)).toBe(false);
    expect(isFinalAttempt(5, policy)).toBe(false);
    expect(isFinalAttempt(6, policy)).toBe(true);
    expect(isFinalAttempt(1, { ...policy, maxRetries: 0 })).toBe(true);
  });
});

describe('webhookEnv', () => {
  it('when nothing is set, then the defaults apply', () => {
    const env = webhookEnv.parse({});
    expect(env).toEqual({
      WEBHOOK_MAX_RETRIES: 5, WEBHOOK_RETRY_BASE_MS: 1000, WEBHOOK_RETRY_MAX_MS: 300_000, WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_CONCURRENCY: 16, WEBHOOK_SUBSCRIPTION_CONCURRENCY: 2,
    });
    expect(retryPolicyFromEnv(env)).toEqual({ maxRetries: 5, baseMs: 1000, maxMs: 300_000 });
  });

  it('when values are set or malformed, then they are parsed or reported', () => {
    expect(webhookEnv.parse({ WEBHOOK_MAX_RETRIES: '0', WEBHOOK_TIMEOUT_MS: '2500' })).toMatchObject({ WEBHOOK_MAX_RETRIES: 0, WEBHOOK_TIMEOUT_MS: 2500 });
    const r = webhookEnv.safeParse({ WEBHOOK_MAX_RETRIES: '21', WEBHOOK_CONCURRENCY: '0', WEBHOOK_RETRY_BASE_MS: 'x' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path[0]).sort()).toEqual(['WEBHOOK_CONCURRENCY', 'WEBHOOK_MAX_RETRIES', 'WEBHOOK_RETRY_BASE_MS']);
  });
});
