// The shape of an access plan (reference §2.1): entitlement flags, quota counters and gauges, and
// throttles. Strict everywhere: an unknown flag, counter or gauge key in a configured catalog is a
// startup error, not a silently ignored control.
import { z } from 'zod';

export const FLAGS = ['rbac', 'audit', 'access', 'domains', 'sso'] as const;
export const COUNTERS = ['evaluations_run', 'traces_ingested', 'traces_retrieved', 'credits_consumed', 'events_ingested', 'records_ingested'] as const;
export const GAUGES = ['users'] as const;
export const THROTTLE_CATEGORIES = ['standard', 'core_fast', 'core_slow', 'tracing_fast', 'tracing_slow', 'services_fast', 'services_slow', 'ai_services'] as const;

export type Flag = (typeof FLAGS)[number];

/** A counter or gauge. Unset fields are serialised as null (the reference does so too). */
export const QuotaSchema = z.strictObject({
  free: z.number().int().min(0).nullish(),
  limit: z.number().int().min(0).nullish(),
  strict: z.boolean().nullish(),
  /** Minutes. */
  retention: z.number().int().positive().nullish(),
  scope: z.enum(['organization', 'workspace', 'project', 'user']).nullish(),
  period: z.enum(['daily', 'monthly', 'yearly']).nullish(),
});

export const ThrottleSchema = z.strictObject({
  bucket: z.strictObject({
    capacity: z.number().int().positive().nullish(),
    /** Tokens per minute. */
    rate: z.number().int().positive().nullish(),
    algorithm: z.enum(['gcra', 'tbra']).nullish(),
  }),
  mode: z.enum(['include', 'exclude']).default('include'),
  categories: z.array(z.enum(THROTTLE_CATEGORIES)).nullish(),
  endpoints: z.array(z.tuple([z.string().min(1), z.string().min(1)])).nullish(),
});

export const PlanSchema = z.strictObject({
  description: z.string().optional(),
  flags: z.strictObject(Object.fromEntries(FLAGS.map((f) => [f, z.boolean()])) as Record<Flag, z.ZodBoolean>).partial().optional(),
  counters: z.strictObject(Object.fromEntries(COUNTERS.map((c) => [c, QuotaSchema])) as Record<(typeof COUNTERS)[number], typeof QuotaSchema>).partial().optional(),
  gauges: z.strictObject(Object.fromEntries(GAUGES.map((g) => [g, QuotaSchema])) as Record<(typeof GAUGES)[number], typeof QuotaSchema>).partial().optional(),
  throttles: z.array(ThrottleSchema).optional(),
});

export const PlanCatalogSchema = z.record(z.string().regex(/^[a-z0-9_]{1,64}$/, 'plan slugs are lowercase letters, digits and _'), PlanSchema)
  .refine((c) => Object.keys(c).length > 0, 'the plan catalog must hold at least one plan');

export type Quota = z.infer<typeof QuotaSchema>;
export type Throttle = z.infer<typeof ThrottleSchema>;
export type Plan = z.infer<typeof PlanSchema>;
export type PlanCatalog = z.infer<typeof PlanCatalogSchema>;
