import { planHasFlag, type AccessCatalog } from './plan-catalog.ts';
import type { Flag } from './plan-schema.ts';

// Which plan an organization is on, for entitlements, quotas and throttles: its own subscription
// record (accounts projection), or the deployment's default plan for an organization that has none
// (created before plans per organization). Cached per organization for `ttlMs`, so the hot paths
// (ingest admission, throttles) do not read Postgres per request; a change this process makes is
// seen at once (`invalidate`), another process's within `ttlMs`.
export interface PlanRecord {
  plan: string;
  active: boolean;
  /** Billing anchor day (1–31); 1 when the organization has no record. */
  anchor: number;
}

export interface PlanResolverOptions {
  /** Reads the organization's record; undefined = none. */
  read: (organizationId: string) => Promise<PlanRecord | undefined>;
  defaultPlan: string;
  ttlMs: number;
  /** Bound on cached organizations (oldest dropped first). */
  maxEntries?: number;
  now?: () => number;
}

export interface PlanResolver {
  planOf(organizationId: string): Promise<PlanRecord>;
  invalidate(organizationId: string): void;
}

export function createPlanResolver(opts: PlanResolverOptions): PlanResolver {
  const now = opts.now ?? Date.now;
  const max = opts.maxEntries ?? 100_000;
  const cache = new Map<string, { at: number; value: Promise<PlanRecord> }>();
  const key = (id: string): string => id.toLowerCase();
  return {
    planOf(organizationId) {
      const k = key(organizationId);
      const hit = cache.get(k);
      if (hit && now() - hit.at < opts.ttlMs) return hit.value;
      const value = opts.read(organizationId).then((r) => r ?? { plan: opts.defaultPlan, active: true, anchor: 1 });
      // A failed read is not cached: the next call tries again.
      value.catch(() => { if (cache.get(k)?.value === value) cache.delete(k); });
      cache.delete(k);
      cache.set(k, { at: now(), value });
      if (cache.size > max) cache.delete(cache.keys().next().value!);
      return value;
    },
    invalidate(organizationId) { cache.delete(key(organizationId)); },
  };
}

/** Whether the organization's own plan grants `flag` (an unknown plan grants nothing). */
export function entitlement(catalog: Pick<AccessCatalog, 'plans'>, plans: PlanResolver, flag: Flag): (organizationId: string) => Promise<boolean> {
  return async (organizationId) => planHasFlag(catalog, (await plans.planOf(organizationId)).plan, flag);
}
