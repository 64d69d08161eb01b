// Which throttles apply to a plan (reference accounts §2.3): the plan's own, or the free plan's
// when the plan is unknown or defines none; nothing when the free plan is missing or has none
// either. Each throttle becomes a bucket spec with this replica's share of the limit.
import type { PlanCatalog, Throttle } from '@llm/access';
import { endpointMatches, type Endpoint, type ThrottleCategory } from './categories.ts';
import { gcraParams, type GcraParams } from './gcra.ts';

export const DEFAULT_FREE_PLAN = 'cloud_v0_hobby';

export interface BucketSpec {
  /** Identifies the bucket within an organization and plan (mode, categories, endpoints). */
  id: string;
  /** This replica's share of the throttle's capacity (what X-RateLimit-Limit reports). */
  capacity: number;
  /** This replica's share of the refill rate, tokens per minute. */
  ratePerMinute: number;
  algorithm: 'gcra' | 'tbra';
  params: GcraParams;
  mode: 'include' | 'exclude';
  categories: readonly ThrottleCategory[] | undefined;
  endpoints: readonly Endpoint[] | undefined;
}

export interface PlanThrottles {
  /** The plan whose throttles apply (the free plan when the organization's plan fell back). */
  plan: string;
  buckets: readonly BucketSpec[];
}

export interface PlanThrottleOptions {
  /** Default `cloud_v0_hobby`. */
  freePlan?: string | undefined;
  /** Replicas sharing the deployment-wide limit; each enforces 1/replicas of it. Default 1. */
  replicas?: number | undefined;
}

/** One replica's share of a limit: rounded up, so a limit never becomes 0. */
export function perReplica(limit: number, replicas: number): number {
  return Math.max(1, Math.ceil(limit / replicas));
}

function bucketId(t: Throttle): string {
  const parts: string[] = [t.mode];
  if (t.categories) parts.push(`c=${[...t.categories].sort().join(',')}`);
  if (t.endpoints) parts.push(`e=${t.endpoints.map(([m, g]) => `${m.toUpperCase()} ${g}`).join(',')}`);
  if (!t.categories && !t.endpoints) parts.push('all');
  return parts.join(';');
}

/** The bucket spec of one throttle; none when it sets neither capacity nor rate. */
export function bucketSpecOf(t: Throttle, replicas: number): BucketSpec | undefined {
  // A throttle that sets one of the two gets the same number for the other.
  const capacity = t.bucket.capacity ?? t.bucket.rate;
  const rate = t.bucket.rate ?? t.bucket.capacity;
  if (capacity == null || rate == null) return undefined;
  const c = perReplica(capacity, replicas);
  const r = perReplica(rate, replicas);
  return {
    id: bucketId(t),
    capacity: c,
    ratePerMinute: r,
    algorithm: t.bucket.algorithm ?? 'gcra',
    params: gcraParams(c, r),
    mode: t.mode,
    categories: t.categories ?? undefined,
    endpoints: t.endpoints ?? undefined,
  };
}

/** Whether a request (its category, method and path) counts against a bucket. */
export function bucketMatches(b: BucketSpec, category: ThrottleCategory, method: string, path: string): boolean {
  // Neither categories nor endpoints: every request, whatever the mode.
  if (!b.categories && !b.endpoints) return true;
  const hit = (b.categories?.includes(category) ?? false) || (b.endpoints ? endpointMatches(b.endpoints, method, path) : false);
  return b.mode === 'exclude' ? !hit : hit;
}

function definesThrottles(plans: PlanCatalog, plan: string): boolean {
  return Object.hasOwn(plans, plan) && (plans[plan]?.throttles?.length ?? 0) > 0;
}

function specsOf(plans: PlanCatalog, plan: string, replicas: number): PlanThrottles {
  const seen = new Set<string>();
  const buckets: BucketSpec[] = [];
  for (const t of plans[plan]?.throttles ?? []) {
    const b = bucketSpecOf(t, replicas);
    // The same throttle twice is one bucket, checked once.
    if (!b || seen.has(b.id)) continue;
    seen.add(b.id);
    buckets.push(b);
  }
  return { plan, buckets };
}

function validReplicas(replicas: number | undefined): number {
  const n = replicas ?? 1;
  if (!Number.isInteger(n) || n < 1) throw new Error(`throttle replicas must be an integer >= 1 (got ${String(replicas)})`);
  return n;
}

/**
 * The throttles of a plan, with the free-plan fallback; undefined when nothing is throttled.
 * `plans` is read once per plan slug: the returned function caches its answers (the catalog is
 * fixed at startup), and unknown slugs share the free plan's entry.
 */
export function planThrottles(plans: PlanCatalog, opts: PlanThrottleOptions = {}): (plan: string) => PlanThrottles | undefined {
  const freePlan = opts.freePlan ?? DEFAULT_FREE_PLAN;
  const replicas = validReplicas(opts.replicas);
  const fallback = definesThrottles(plans, freePlan) ? specsOf(plans, freePlan, replicas) : undefined;
  const own = new Map<string, PlanThrottles>();
  for (const slug of Object.keys(plans)) if (definesThrottles(plans, slug)) own.set(slug, specsOf(plans, slug, replicas));
  return (plan) => {
    const p = Object.hasOwn(plans, plan) ? own.get(plan) : undefined;
    const chosen = p ?? fallback;
    return chosen && chosen.buckets.length > 0 ? chosen : undefined;
  };
}
