// Request bodies of the read routes whose handlers validate them with these schemas (moved here from
// the query service so the OpenAPI document describes exactly what is enforced): the deprecated flat
// parameter style of /tracing/spans/query and the analytics endpoints (reference §5.4), and the
// simple-trace query (reference compat §5.2).
import { z } from 'zod';
import { int, ints, finite, NUMBER_LIMITS, queryNumber } from './numbers.ts';
import { jsonObject, jsonValue, openObject, text, textRecord, texts } from './text.ts';

/** Past any epoch nanosecond count of 2299 (about 1.05e19): a bigger number is no time at all. */
const EPOCH_MAX = 1e20;

/** The fields every flat endpoint takes (query string and/or a flat JSON body; the body wins per name). */
export const FLAT_FIELDS = {
  focus: z.enum(['trace', 'span']).optional(),
  format: z.enum(['agenta', 'opentelemetry']).optional(),
  // Numbers as query-string text or JSON, bounded (numbers.ts); timestamps may be epoch s/ms/µs/ns.
  oldest: z.union([texts.shortText, finite({ min: -EPOCH_MAX, max: EPOCH_MAX })]).optional(),
  newest: z.union([texts.shortText, finite({ min: -EPOCH_MAX, max: EPOCH_MAX })]).optional(),
  limit: queryNumber(ints.int32).optional(),
  rate: queryNumber(finite({ min: 0, max: 1, label: 'rate' })).optional(),
  interval: queryNumber(int({ min: 1, label: 'interval' })).optional(),
  /** A filtering object or its JSON text. */
  filter: jsonValue.optional(),
};

/** POST /tracing/spans/query. */
export const flatSpanQuery = z.strictObject(FLAT_FIELDS);

// The interface defines `interval` as a whole number of seconds.
const interval = z.coerce
  .number({ error: 'interval must be a whole number of seconds' })
  .int({ error: 'interval must be a whole number of seconds' })
  .min(1, { error: 'interval must be at least 1 (second)' })
  .max(NUMBER_LIMITS.int32Max, { error: `interval must be at most ${NUMBER_LIMITS.int32Max} (seconds)` })
  .optional();
const rate = z.coerce
  .number({ error: 'rate must be a number in (0, 1]' })
  .gt(0, { error: 'rate must be in (0, 1]' })
  .lte(1, { error: 'rate must be in (0, 1]' })
  .optional();

/** Spec-driven analytics (POST /spans/analytics/query): no `limit` (nothing is paged), plus `specs` (a list or its JSON text). */
export const analyticsInput = z.strictObject({
  focus: FLAT_FIELDS.focus, format: FLAT_FIELDS.format, oldest: FLAT_FIELDS.oldest, newest: FLAT_FIELDS.newest, filter: FLAT_FIELDS.filter,
  interval, rate, specs: jsonValue.optional(),
});

/** Legacy analytics (POST /tracing/spans/analytics) takes the span query's fields; `limit` is accepted for old clients and unused. */
export const legacyAnalyticsInput = z.strictObject({ ...FLAT_FIELDS, interval, rate });

const traceRefId = text({ max: 100 });
const idRef = z.object({ trace_id: traceRefId, span_id: traceRefId });

/** POST /simple/traces/query: simple traces by their fields, links or a window. */
export const simpleTraceQuery = z.object({
  trace: z.object({
    origin: z.enum(['human', 'auto', 'custom']).optional(),
    kind: z.enum(['adhoc', 'eval', 'play']).optional(),
    channel: z.enum(['sdk', 'api', 'web', 'otlp']).optional(),
    tags: jsonObject.nullish(),
    meta: jsonObject.nullish(),
    references: textRecord(openObject({ id: traceRefId.nullish(), slug: text({ max: 1000 }).nullish() })).nullish(),
    links: z.union([textRecord(idRef), z.array(idRef)]).nullish(),
  }).nullish(),
  links: z.array(idRef.partial({ span_id: true })).nullish(),
  windowing: jsonValue.optional(),
}).nullish();
