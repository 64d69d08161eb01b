// The plan catalog of a deployment: the default plans, or ACCESS_PLANS (JSON, validated strictly at
// startup), and the plan new organizations get (ACCESS_DEFAULT_PLAN, which must be in the catalog).
import { z } from 'zod';
import { DEFAULT_PLAN, DEFAULT_PLANS } from './default-plans.ts';
import { FLAGS, PlanCatalogSchema, type Flag, type PlanCatalog, type Quota } from './plan-schema.ts';

export interface AccessCatalog {
  plans: PlanCatalog;
  defaultPlan: string;
  /** How long a process keeps an organization's plan before reading it again (ms). */
  planCacheMs: number;
  /** Ingest admission: how long an organization found over a non-strict limit is refused from memory (ms). */
  quota: { refusalCacheMs: number };
  /** Replicas sharing each throttle (each enforces 1/N of the plan's buckets). */
  throttleReplicas: number;
  /** Whether throttles and quota admission run at all (ACCESS_ENFORCEMENT). */
  enforce: boolean;
}

export const accessEnv = z.object({
  /** JSON object of plans (same shape as GET /access/plans); replaces the default catalog. */
  ACCESS_PLANS: z.string().optional(),
  ACCESS_DEFAULT_PLAN: z.string().default(DEFAULT_PLAN),
  /** How stale an organization's plan may be in another process after a change (ms). */
  ACCESS_PLAN_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  /** An organization over a non-strict quota is refused from memory this long before the counter is asked again. */
  QUOTA_REFUSAL_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
  /** Replicas of a service behind one load balancer: each enforces ceil(limit / N) of every throttle. */
  THROTTLE_REPLICAS: z.coerce.number().int().min(1).max(1000).default(1),
  /** `false` turns throttles and quota admission off (a private deployment that wants no limits; benchmarks' baseline). */
  ACCESS_ENFORCEMENT: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
});

export type AccessEnv = z.infer<typeof accessEnv>;

export function loadAccessCatalog(env: AccessEnv): { ok: true; config: AccessCatalog } | { ok: false; problems: string[] } {
  let plans: PlanCatalog = DEFAULT_PLANS;
  if (env.ACCESS_PLANS !== undefined) {
    let json: unknown;
    try { json = JSON.parse(env.ACCESS_PLANS); } catch (err) {
      return { ok: false, problems: [`ACCESS_PLANS: not JSON (${(err as Error).message})`] };
    }
    const r = PlanCatalogSchema.safeParse(json);
    if (!r.success) return { ok: false, problems: r.error.issues.map((i) => `ACCESS_PLANS.${i.path.join('.')}: ${i.message}`) };
    plans = r.data;
  }
  if (!Object.hasOwn(plans, env.ACCESS_DEFAULT_PLAN)) {
    return { ok: false, problems: [`ACCESS_DEFAULT_PLAN: '${env.ACCESS_DEFAULT_PLAN}' is not a plan of the catalog (${Object.keys(plans).join(', ')})`] };
  }
  return {
    ok: true,
    config: {
      plans, defaultPlan: env.ACCESS_DEFAULT_PLAN, planCacheMs: env.ACCESS_PLAN_CACHE_MS,
      quota: { refusalCacheMs: env.QUOTA_REFUSAL_CACHE_MS }, throttleReplicas: env.THROTTLE_REPLICAS, enforce: env.ACCESS_ENFORCEMENT,
    },
  };
}

/** Whether a plan grants a flag; an unknown plan or an unset flag grants nothing. */
export function planHasFlag(catalog: Pick<AccessCatalog, 'plans'>, plan: string, flag: Flag): boolean {
  return Object.hasOwn(catalog.plans, plan) && catalog.plans[plan]?.flags?.[flag] === true;
}

const QUOTA_FIELDS = ['free', 'limit', 'strict', 'retention', 'scope', 'period'] as const;

function quotaOut(q: Quota): Record<string, unknown> {
  return Object.fromEntries(QUOTA_FIELDS.map((f) => [f, q[f] ?? null]));
}

/** GET /access/plans: keys a plan does not define are absent; quota and throttle fields are all
 * present, unset ones as null. */
export function serializeCatalog(catalog: AccessCatalog): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [slug, p] of Object.entries(catalog.plans)) {
    const plan: Record<string, unknown> = {};
    if (p.flags) plan.flags = Object.fromEntries(FLAGS.filter((f) => p.flags?.[f] !== undefined).map((f) => [f, p.flags![f]]));
    if (p.counters) plan.counters = Object.fromEntries(Object.entries(p.counters).map(([k, q]) => [k, quotaOut(q)]));
    if (p.gauges) plan.gauges = Object.fromEntries(Object.entries(p.gauges).map(([k, q]) => [k, quotaOut(q)]));
    if (p.throttles) {
      plan.throttles = p.throttles.map((t) => ({
        bucket: { capacity: t.bucket.capacity ?? null, rate: t.bucket.rate ?? null, algorithm: t.bucket.algorithm ?? null },
        mode: t.mode,
        categories: t.categories ?? null,
        endpoints: t.endpoints ?? null,
      }));
    }
    if (p.description !== undefined) plan.description = p.description;
    out[slug] = plan;
  }
  return out;
}
