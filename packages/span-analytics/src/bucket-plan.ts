// The analytics window and its buckets. Units are seconds, as the interface defines `interval` (the
// reference counts minutes). Buckets are aligned to `oldest`: bucket k covers
// [oldest + k·width, oldest + (k+1)·width), the last one cut at `newest`.
import { DEFAULT_WINDOW_S, MAX_BUCKETS, WIDTH_LADDER_S } from './limits.ts';

const US_PER_S = 1_000_000;
const DAY_US = 86_400 * US_PER_S;

export interface Window {
  /** Inclusive lower bound on span start_time, epoch µs. */
  oldestUs: number;
  /** Exclusive upper bound, epoch µs. */
  newestUs: number;
}

export type WindowResult = { ok: true; window: Window } | { ok: false; field: 'oldest' | 'newest'; message: string };

/**
 * Defaults as in the reference: `newest` = the next UTC midnight after `nowUs`, `oldest` = 30 days
 * before `newest`. Unlike the reference (which then silently uses the default window), an `oldest`
 * that is not before `newest` is an error.
 */
export function resolveWindow(input: { oldestUs?: number; newestUs?: number }, nowUs: number): WindowResult {
  const newestUs = input.newestUs ?? (Math.floor(nowUs / DAY_US) + 1) * DAY_US;
  const oldestUs = input.oldestUs ?? newestUs - DEFAULT_WINDOW_S * US_PER_S;
  if (newestUs <= oldestUs) {
    const newest = input.newestUs === undefined ? ' (default: the next UTC midnight)' : '';
    return { ok: false, field: input.newestUs === undefined ? 'oldest' : 'newest', message: `newest${newest} must be later than oldest (the window is oldest <= start_time < newest)` };
  }
  return { ok: true, window: { oldestUs, newestUs } };
}

export interface BucketPlan extends Window {
  /** Width of every bucket, µs (a whole number of seconds). */
  widthUs: number;
  /** The width in seconds: what each bucket's `interval` reports. */
  intervalS: number;
  /** Buckets from oldest to newest (the last may be cut short by newest). */
  count: number;
  /** The interval the request asked for, when it was widened to respect MAX_BUCKETS. */
  requestedIntervalS?: number;
}

/**
 * No interval: one bucket over the whole window. An interval that would make more than MAX_BUCKETS
 * buckets is widened to the first width of WIDTH_LADDER_S that fits (beyond the ladder, to the
 * smallest whole number of seconds that fits). Counts include the last, partial bucket.
 */
export function planBuckets(window: Window, intervalS?: number): BucketPlan {
  const rangeUs = window.newestUs - window.oldestUs;
  if (rangeUs <= 0) throw new Error('planBuckets: empty window');
  const bucketsOf = (s: number): number => Math.ceil(rangeUs / (s * US_PER_S));
  if (intervalS === undefined) {
    const whole = Math.ceil(rangeUs / US_PER_S);
    return { ...window, widthUs: whole * US_PER_S, intervalS: whole, count: 1 };
  }
  if (!Number.isInteger(intervalS) || intervalS < 1) throw new Error(`planBuckets: interval must be a positive integer, got ${intervalS}`);
  let width = intervalS;
  if (bucketsOf(width) > MAX_BUCKETS) {
    width = WIDTH_LADDER_S.find((s) => s > intervalS && bucketsOf(s) <= MAX_BUCKETS) ?? Math.ceil(rangeUs / US_PER_S / MAX_BUCKETS);
  }
  const plan: BucketPlan = { ...window, widthUs: width * US_PER_S, intervalS: width, count: bucketsOf(width) };
  if (width !== intervalS) plan.requestedIntervalS = intervalS;
  return plan;
}

/** Start of bucket `k`, epoch µs. */
export function bucketStartUs(plan: BucketPlan, k: number): number {
  return plan.oldestUs + k * plan.widthUs;
}
