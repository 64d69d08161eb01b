// The admission predicate of a quota (reference accounts §2.3), for a request adding `delta` to the
// current value `value`: no limit → allowed; strict → allowed while the result stays within the
// limit; non-strict → one request may cross the line once (its delta within the limit, the value
// still below it), after which everything is refused.
import type { Quota } from '@llm/access';

export function admits(quota: Pick<Quota, 'limit' | 'strict'> | undefined, value: number, delta: number): boolean {
  if (!quota || quota.limit == null) return true;
  if (delta <= 0) return true;
  if (quota.strict) return value + delta <= quota.limit;
  return delta <= quota.limit && value < quota.limit;
}
