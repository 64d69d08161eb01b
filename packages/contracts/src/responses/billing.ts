// zod schemas of the billing answers (reference accounts §11; services/command billing-routes and
// billing-events-routes, services/query billing-routes) and of the access plan catalog
// (GET /access/plans, packages/access serializeCatalog). Billing refusals have their own error body
// (openapi-document.ts): these are the success answers only.
import { z } from 'zod';

/** A route that needs the payments processor, on a deployment without one: a 200, as the reference answers. */
const notConfigured = z.object({ status: z.literal('ok'), message: z.string() });
const success = z.object({ status: z.literal('success') });

/** POST /billing/payments/events (and the /billing/stripe alias): applied, skipped for another target, or no processor. */
export const billingEventAnswer = z.union([success, z.object({ status: z.literal('skip'), message: z.string() }), notConfigured]);
/** POST /billing/payments/checkouts. */
export const billingCheckoutAnswer = z.union([z.object({ checkout_url: z.string() }), notConfigured]);
/** POST /billing/payments/portals. */
export const billingPortalAnswer = z.union([z.object({ portal_url: z.string() }), notConfigured]);
/** POST /billing/plans/switch and /billing/subscription/cancel. */
export const billingSuccessAnswer = success;

/**
 * One entry of the display catalog (GET /billing/plans, /billing/catalog). BILLING_CATALOG replaces
 * the default catalog wholesale and may carry more display fields, so the entry stays open.
 */
export const billingCatalogAnswer = z.array(z.looseObject({
  title: z.string(),
  description: z.string(),
  type: z.enum(['standard', 'custom']),
  features: z.array(z.string()),
  /** Absent for an entry that cannot be bought ("contact us"). */
  plan: z.string().optional(),
  /** Display prices, or the plan's configured line items when it has a pricing entry. */
  price: z.record(z.string(), z.unknown()).optional(),
  /** Trace retention, in minutes. */
  retention: z.number().optional(),
}));

/** GET /billing/pricing: per plan, `{free?: true, trial?: days, <slot>: {price, quantity?}}`. */
export const billingPricingAnswer = z.record(z.string(), z.record(z.string(), z.union([
  z.object({ price: z.string(), quantity: z.number().optional() }),
  z.literal(true),
  z.number(),
])));

/** GET /billing/subscription: the plan and, for a paid one, its current period (epoch seconds). */
export const billingSubscriptionAnswer = z.object({
  plan: z.string(),
  type: z.enum(['standard', 'custom']),
  period_start: z.number().optional(),
  period_end: z.number().optional(),
  free_trial: z.boolean().optional(),
});

/** GET /billing/usage: per counter and gauge of the plan, the value in its current period and its quota. */
export const billingUsageAnswer = z.record(z.string(), z.object({
  value: z.number(),
  limit: z.number().nullable(),
  free: z.number().nullable(),
  period: z.enum(['daily', 'monthly', 'yearly']).nullable(),
  scope: z.enum(['organization', 'workspace', 'project', 'user']),
  strict: z.boolean(),
}));

/** A counter or gauge of a plan: every field present, unset ones null. */
const quota = z.object({
  free: z.number().nullable(),
  limit: z.number().nullable(),
  strict: z.boolean().nullable(),
  /** Minutes. */
  retention: z.number().nullable(),
  scope: z.enum(['organization', 'workspace', 'project', 'user']).nullable(),
  period: z.enum(['daily', 'monthly', 'yearly']).nullable(),
});

/**
 * GET /access/plans: the deployment's plans by slug. The keys a plan does not define are absent;
 * the flag, counter and gauge names are the catalog's (packages/access plan-schema.ts).
 */
export const accessPlansAnswer = z.record(z.string(), z.object({
  description: z.string().optional(),
  flags: z.record(z.string(), z.boolean()).optional(),
  counters: z.record(z.string(), quota).optional(),
  gauges: z.record(z.string(), quota).optional(),
  throttles: z.array(z.object({
    bucket: z.object({ capacity: z.number().nullable(), rate: z.number().nullable(), algorithm: z.enum(['gcra', 'tbra']).nullable() }),
    mode: z.enum(['include', 'exclude']),
    categories: z.array(z.string()).nullable(),
    /** `[method, path]` pairs. (An array of length 2, not a tuple: schemathesis 4.32 mis-reads the
     * `prefixItems` a tuple becomes and refuses the whole operation.) */
    endpoints: z.array(z.array(z.string()).length(2)).nullable(),
  })).optional(),
}));
