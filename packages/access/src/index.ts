export { FLAGS, COUNTERS, GAUGES, THROTTLE_CATEGORIES, PlanSchema, PlanCatalogSchema, QuotaSchema, ThrottleSchema } from './plan-schema.ts';
export type { Flag, Plan, PlanCatalog, Quota, Throttle } from './plan-schema.ts';
export { DEFAULT_PLANS, DEFAULT_PLAN } from './default-plans.ts';
export { accessEnv, loadAccessCatalog, planHasFlag, serializeCatalog, type AccessCatalog, type AccessEnv } from './plan-catalog.ts';
export { createPlanResolver, entitlement, type PlanRecord, type PlanResolver, type PlanResolverOptions } from './plan-resolver.ts';
export {
  effectiveRetentionMinutes, longestPlanRetentionMinutes, planRetentionMinutes, retentionHorizon, type RetainedData, type RetentionHorizon,
} from './retention.ts';
