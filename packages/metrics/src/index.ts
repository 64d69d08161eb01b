export { counter, gauge } from './counters.ts';
export { renderMetrics, METRICS_CONTENT_TYPE } from './registry.ts';
export { labelledCounter, histogram, DURATION_BUCKETS_SECONDS, SIZE_BUCKETS } from './labelled.ts';
export type { LabelledCounter, LabelledHistogram, LabelValues } from './labelled.ts';
export { registerLagSource, configureLagCollection } from './consumer-lag.ts';
export type { LagSource, LagCollectionOptions, PartitionLag } from './consumer-lag.ts';
