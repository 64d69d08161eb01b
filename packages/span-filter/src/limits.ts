// Bounds on what one request may ask of the span store. A filter is user input compiled into one
// SQL statement: without caps a single body could make a statement of megabytes or nest deep enough
// to exhaust the stack of whoever walks it.

/** Nesting levels of filtering objects (the top-level object is level 1). */
export const MAX_FILTER_DEPTH = 16;
/** Conditions and nested filtering objects in one filter, counted over all levels. */
export const MAX_FILTER_CONDITIONS = 256;
/** Items in the value list of one `in` / `not_in` / `btwn` condition. */
export const MAX_LIST_VALUES = 1000;
/** Nesting levels inside one condition value (objects/arrays matched against attributes). */
export const MAX_VALUE_DEPTH = 8;
/** Segments of one dotted attribute key. */
export const MAX_KEY_SEGMENTS = 32;
/** Query parameters one compiled filter may use (a backstop behind the limits above). */
export const MAX_FILTER_PARAMS = 4096;

/** Page size when `windowing.limit` is not given. */
export const DEFAULT_LIMIT = 100;
/** Largest page a client may ask for; larger limits are rejected, not clamped. */
export const MAX_LIMIT = 1000;
/** Sampling resolution: `rate` keeps round(rate * RATE_BUCKETS) buckets out of RATE_BUCKETS. */
export const RATE_BUCKETS = 10_000;
