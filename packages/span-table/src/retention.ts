// The retention bound of span reads (issue 30): every read of the span table carries this predicate,
// so a span past its project's retention is invisible from the moment it expires, whether or not the
// purge has removed it yet — and a replay, which rebuilds spans the topic still holds, cannot bring
// back one a reader may no longer see.

/** The query parameter (Int64, Unix µs) of the bound. */
export const RETAINED_FROM_PARAM = 'retained_from_us';

/** The predicate on the span table's `start_time` (retention counts from a span's start). */
export const RETAINED_SPANS_SQL = `start_time >= fromUnixTimestamp64Micro({${RETAINED_FROM_PARAM}:Int64}, 'UTC')`;

/** DateTime64's earliest instant (1900-01-01): the bound of data that never expires. */
export const EARLIEST_US = -2_208_988_800_000_000;

/** The bound's parameter value: the horizon in whole µs, or the earliest instant when nothing expires. */
export const retainedFromUs = (fromUs: number | undefined): number =>
  fromUs === undefined || !Number.isFinite(fromUs) ? EARLIEST_US : Math.max(Math.floor(fromUs), EARLIEST_US);
