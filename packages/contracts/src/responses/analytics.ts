// zod schemas of the analytics answers (services/query analytics-routes, shaped by
// packages/span-analytics): spec-driven buckets with one metric per spec path, and the legacy
// fixed-schema buckets of POST /tracing/spans/analytics.
import { z } from 'zod';

const count = z.number().int().min(0);
const metricType = z.enum(['numeric/continuous', 'numeric/discrete', 'binary', 'categorical/single', 'categorical/multiple', 'string', 'json']);

/**
 * One spec's value in one bucket. The fields beyond `type` and `count` depend on the type
 * (summary statistics, histogram, frequencies, truncation), so they are left open here.
 */
export const analyticsMetric = z.looseObject({ type: metricType, count });

export const analyticsBucket = z.object({
  /** Start of the bucket, ISO-8601 UTC. */
  timestamp: z.string(),
  /** Width in seconds actually used. */
  interval: z.number().int().min(1),
  /** Keyed by spec path (`attributes.<path>`); only the specs with a value in this bucket. */
  metrics: z.record(z.string(), analyticsMetric),
});

/** POST /spans/analytics/query (and /tracing/analytics/query): the buckets, and the query as it ran. */
export const analyticsResponse = z.object({
  count,
  buckets: z.array(analyticsBucket),
  query: z.object({
    formatting: z.object({ focus: z.enum(['trace', 'span']), format: z.enum(['agenta', 'opentelemetry']) }),
    windowing: z.object({ oldest: z.string(), newest: z.string(), interval: z.number().int().min(1), rate: z.number().optional() }),
    /** The filter as parsed, defaults filled in (`{operator: 'and', conditions: []}` without one). */
    filtering: z.unknown(),
  }),
  /** The specs as computed (a `*` spec shows the type it resolved to). */
  specs: z.array(z.object({
    type: z.enum([...metricType.options, '*', 'none']),
    path: z.string(),
    bins: z.number().optional(),
    vmin: z.number().optional(),
    vmax: z.number().optional(),
    edge: z.boolean().optional(),
  })),
});

const legacyTotals = z.object({ count: z.number(), duration: z.number(), costs: z.number(), tokens: z.number() });

/** POST /tracing/spans/analytics (legacy): fixed totals per bucket, overall and for spans with errors. */
export const legacyAnalyticsResponse = z.object({
  count,
  buckets: z.array(z.object({ timestamp: z.string(), interval: z.number().int().min(1), total: legacyTotals, errors: legacyTotals })),
});
