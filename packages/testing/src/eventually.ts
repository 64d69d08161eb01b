// Waiting for asynchronous effects (spans are visible within seconds, by contract not at once).
import { inspect } from 'node:util';

/** Thrown when `eventually`'s condition never held: names the last value, or the last error as cause. */
export class EventuallyTimeoutError extends Error {
  constructor(timeoutMs: number, attempts: number, readonly last: { value: unknown } | { error: unknown }) {
    const what = 'value' in last
      ? `last value: ${preview(last.value)}`
      : `last attempt threw: ${last.error instanceof Error ? last.error.message : preview(last.error)}`;
    super(`condition not met within ${timeoutMs} ms (${attempts} attempts); ${what}`, 'error' in last ? { cause: last.error } : undefined);
    this.name = 'EventuallyTimeoutError';
  }
}

function preview(v: unknown): string {
  const s = inspect(v, { depth: 6, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 200 });
  return s.length > 2_000 ? `${s.slice(0, 2_000)}…` : s;
}

/**
 * Polls `fn` until `until` holds and returns that value. An attempt that throws (in `fn` or `until`)
 * counts as "not yet". On timeout it throws: a wait that returned its last value instead let the
 * assertions after it run on data that had not arrived, or pass without the effect ever happening.
 */
export async function eventually<T>(fn: () => Promise<T>, until: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: { value: unknown } | { error: unknown };
  for (let attempts = 1; ; attempts++) {
    try {
      const value = await fn();
      if (until(value)) return value;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) throw new EventuallyTimeoutError(timeoutMs, attempts, last);
    await new Promise((r) => setTimeout(r, 150));
  }
}
