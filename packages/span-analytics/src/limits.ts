// Bounds on one analytics request. A response holds buckets × specs × (27 percentiles + bins or
// distinct values): without caps one request could ask the store for millions of groups.

/** Most buckets one response holds; a finer `interval` is widened (see bucket-plan.ts). */
export const MAX_BUCKETS = 1024;

/**
 * Bucket widths (seconds) tried in order when the requested interval would exceed MAX_BUCKETS:
 * 1 m, 5 m, 15 m, 30 m, 1 h, 3 h, 6 h, 12 h, 1 d, 3 d, 7 d, 14 d, 30 d (the reference's ladder).
 */
export const WIDTH_LADDER_S = [60, 300, 900, 1_800, 3_600, 10_800, 21_600, 43_200, 86_400, 259_200, 604_800, 1_209_600, 2_592_000] as const;

/** Window length when `oldest` is not given (30 days, as in the reference). */
export const DEFAULT_WINDOW_S = 30 * 86_400;

/** Metric specs in one request. */
export const MAX_SPECS = 32;
/** Histogram bins one continuous spec may ask for (`bins`). */
export const MAX_BINS = 1024;
/** Segments of one spec path (the same bound as filter keys). */
export const MAX_PATH_SEGMENTS = 32;
/** Characters of one spec path. */
export const MAX_PATH_LENGTH = 1024;
/**
 * Distinct values one frequency map (`freq`/`uniq` of discrete, categorical and multiple specs)
 * returns per bucket: the most frequent ones; the metric is marked `truncated` with the rest summed
 * in `other`. A high-cardinality path (ids, free text) would otherwise put every value in the answer.
 */
export const MAX_DISTINCT_VALUES = 1000;
