// GET /billing/usage (reference accounts §11): every metered counter and every gauge of the
// organization's plan with the caller's value at that quota's scope and period (monthly from the
// billing anchor). A counter with no source in this system (METERED_COUNTERS) is left out of the
// answer rather than reported as a 0 nobody measured.
import type { Plan, Quota } from '@llm/access';
import type { Pool } from '@llm/postgres';
import { counterValue, METERED_COUNTERS, usersGauge } from './meters.ts';
import { periodRange } from './period.ts';

type Queryable = Pick<Pool, 'query'>;

export interface UsageEntry { value: number; limit: number | null; free: number | null; period: string | null; scope: string; strict: boolean }

export interface UsageScope { organizationId: string; workspaceId: string; projectId: string; userId: string }

const metered = new Set<string>(METERED_COUNTERS);

/** The value of one metered counter at its quota's scope and period. */
async function counterAt(q: Queryable, key: string, quota: Quota, scope: UsageScope, anchor: number, now: Date): Promise<number> {
  const range = periodRange(now, quota.period, anchor);
  return counterValue(q, {
    organizationId: scope.organizationId, meter: key, ...(range ? { range } : {}),
    ...(quota.scope === 'project' ? { projectId: scope.projectId } : {}), ...(quota.scope === 'workspace' ? { workspaceId: scope.workspaceId } : {}),
    ...(quota.scope === 'user' ? { userId: scope.userId } : {}),
  });
}

const entry = (value: number, q: Quota): UsageEntry =>
  ({ value, limit: q.limit ?? null, free: q.free ?? null, period: q.period ?? null, scope: q.scope ?? 'organization', strict: q.strict === true });

export async function usageReport(q: Queryable, plan: Plan | undefined, scope: UsageScope, anchor: number, now = new Date()): Promise<Record<string, UsageEntry>> {
  const out: Record<string, UsageEntry> = {};
  // One after the other: a read model query at a time per request keeps the pool free for others.
  for (const [key, quota] of Object.entries(plan?.counters ?? {})) {
    if (metered.has(key)) out[key] = entry(await counterAt(q, key, quota, scope, anchor, now), quota);
  }
  for (const [key, quota] of Object.entries(plan?.gauges ?? {})) out[key] = entry(key === 'users' ? await usersGauge(q, scope.organizationId) : 0, quota);
  return out;
}
