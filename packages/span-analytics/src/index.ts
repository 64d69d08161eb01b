export {
  METRIC_TYPES,
  CONCRETE_METRIC_TYPES,
  DEFAULT_SPECS,
  MetricSpecSchema,
  MetricSpecsSchema,
  parseSpecs,
  echoSpec,
  splitPath,
  type MetricType,
  type ConcreteMetricType,
  type MetricSpec,
  type MetricSpecEcho,
  type ParseSpecsResult,
  type SpecIssue,
} from './metric-spec.ts';
export { resolveWindow, planBuckets, bucketStartUs, type Window, type WindowResult, type BucketPlan } from './bucket-plan.ts';
export { compileScope, type Focus, type Scope, type ScopeInput, type ScopeResult } from './analytics-scope.ts';
export { metricSource, type MetricSource } from './metric-source.ts';
export { planSpecs, type PlannedSpec } from './planned-spec.ts';
export { buildAnalyticsQuery, type AnalyticsQueryOptions, type Statement } from './analytics-query.ts';
export { buildAutoTypeProbe, resolveAutoTypes } from './auto-type.ts';
export {
  shapeAnalytics,
  type AnalyticsBucket,
  type Metric,
  type ContinuousMetric,
  type DiscreteMetric,
  type CategoricalMetric,
  type BinaryMetric,
  type CountMetric,
} from './shape-analytics.ts';
export { buildLegacyQuery, shapeLegacy, type LegacyBucket, type LegacyTotals } from './legacy-analytics.ts';
export { PERCENTILES, SPREADS, percentileStats, type PercentileStats } from './percentiles.ts';
export { histogramLayout, binIndex, binInterval, shapeHistogram, type HistogramLayout, type HistogramBin, type HistogramOptions } from './histogram.ts';
export { frequencies, binaryFrequencies, type FreqEntry, type Frequencies, type OtherValues, type Truncation } from './frequencies.ts';
export { isoUtc } from './iso-time.ts';
export { paramValues } from './sql-params.ts';
export { MAX_BUCKETS, WIDTH_LADDER_S, DEFAULT_WINDOW_S, MAX_SPECS, MAX_BINS, MAX_PATH_SEGMENTS, MAX_DISTINCT_VALUES } from './limits.ts';
