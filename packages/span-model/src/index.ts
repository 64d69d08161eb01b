export {
  SPAN_KINDS,
  SPAN_TYPES,
  STATUS_CODES,
  TRACE_TYPES,
  type JsonObject,
  type JsonValue,
  type RawSpan,
  type Span,
  type SpanEvent,
  type SpanHash,
  type SpanKind,
  type SpanLink,
  type SpanReference,
  type SpanType,
  type StatusCode,
  type TraceType,
} from './span.ts';
export { ok, err, type Result } from './result.ts';
export { parseTraceId, parseSpanId, parseUuid, hexToDashedUuid } from './ids.ts';
export { parseTimestamp, parseTimestampMicros, formatTimestamp, epochMicros } from './timestamps.ts';
export { unflatten } from './unflatten.ts';
export { cleanAg } from './clean-ag.ts';
export { REFERENCE_KEYS, type ReferenceKey } from './reference-keys.ts';
export { deterministicUuid } from './hash.ts';
export { computeSpanHashes } from './span-hashes.ts';
export { PRICE_TABLE, PRICE_TABLE_AS_OF, type ModelPrice } from './price-table.ts';
export { COST_SPAN_TYPES, computeCosts, lookupPrice, type CostVector } from './costs.ts';
export { normalizeSpan, type NormalizeOptions, type NormalizeResult } from './normalize-span.ts';
export { normalizeBatch, type NormalizedBatch, type RejectedSpan } from './normalize-batch.ts';
export { deriveTraceTypes } from './trace-type.ts';
export {
  rollupTrace,
  skeletonOf,
  readCumulative,
  applyCumulative,
  cumulativeEquals,
  recomputeCumulatives,
  type MetricSkeleton,
  type Cumulative,
} from './rollup.ts';
export {
  buildTraceTree,
  childrenByName,
  toOtelTracingTree,
  type TraceTree,
  type TraceTreeNode,
  type OtelTracingTree,
} from './trace-tree.ts';
export { capJsonDepth, MAX_JSON_DEPTH, TOO_DEEP_MARKER } from './json-depth.ts';
