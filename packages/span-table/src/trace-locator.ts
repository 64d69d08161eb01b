// Reads by trace id on a time-ordered span table: look the traces up in the trace index (ordered by
// project and trace id, a few granules), then read only the time ranges they occupy. Ranges closer
// than MERGE_GAP_US are merged, so a page of traces becomes a handful of primary-key ranges.
import type { Clickhouse } from '@llm/clickhouse';
import type { SpanTables } from './tables.ts';

export interface TraceRange {
  trace_id: string;
  /** Unix microseconds, inclusive. */
  first_us: number;
  last_us: number;
}

const MERGE_GAP_US = 3_600_000_000;

/** A stored trace id: 32 lowercase hex (span-model normalises every id it stores to this). */
const STORED_TRACE_ID = /^[0-9a-f]{32}$/;

/**
 * Trace ids as one statement parameter: a comma-joined String split in the statement. Tens of
 * thousands of ids as an Array(String) parameter cost seconds per statement on the embedded engine
 * (40,000: ~8 s), one string milliseconds. Ids that cannot be stored (no 32 lowercase hex, so no
 * comma either) could match nothing and are left out.
 */
export function traceIdsParam(traceIds: readonly string[]): string {
  return traceIds.filter((t) => STORED_TRACE_ID.test(t)).join(',');
}

/** The SQL set of the ids a `traceIdsParam` parameter named `name` holds. */
export const traceIdsSql = (name: string): string => `(SELECT arrayJoin(splitByChar(',', {${name}:String})))`;

/** The time ranges of the given traces (traces unknown to the index are absent). */
export async function locateTraces(ch: Clickhouse, tables: SpanTables, projectId: string, traceIds: readonly string[]): Promise<TraceRange[]> {
  if (traceIds.length === 0) return [];
  const res = await ch.client.query({
    query: `SELECT trace_id, toString(toUnixTimestamp64Micro(min(first_start))) AS f, toString(toUnixTimestamp64Micro(max(last_start))) AS l
            FROM ${ch.database}.${tables.traceIndex} WHERE project_id = {p:String} AND trace_id IN ${traceIdsSql('t')} GROUP BY trace_id`,
    query_params: { p: projectId, t: traceIdsParam(traceIds) },
    format: 'JSONEachRow',
  });
  return (await res.json<{ trace_id: string; f: string; l: string }>()).map((r) => ({ trace_id: r.trace_id, first_us: Number(r.f), last_us: Number(r.l) }));
}

/**
 * A WHERE fragment restricting `start_time` to the traces' ranges (merged), with its parameters
 * named `<prefix>0_lo`, `<prefix>0_hi`, …. Callers still filter on trace_id.
 */
export function timeRangesPredicate(ranges: TraceRange[], prefix = 'tr'): { sql: string; params: Record<string, number | string> } {
  const sorted = ranges.map((r) => [r.first_us, r.last_us] as [number, number]).sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = merged[merged.length - 1];
    if (last && lo - last[1] <= MERGE_GAP_US) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  if (merged.length === 0) return { sql: '0', params: {} };
  const params: Record<string, number | string> = {};
  const parts = merged.map(([lo, hi], i) => {
    params[`${prefix}${i}_lo`] = int64Bound(lo, -1);
    params[`${prefix}${i}_hi`] = int64Bound(hi, 1);
    return `start_time BETWEEN fromUnixTimestamp64Micro({${prefix}${i}_lo:Int64}) AND fromUnixTimestamp64Micro({${prefix}${i}_hi:Int64})`;
  });
  return { sql: `(${parts.join(' OR ')})`, params };
}

/**
 * A range bound as an Int64 parameter. Past 2^53 µs (after the year 2255, which DateTime64(6) still
 * stores) the number read back from the index is not exact, and the client refuses to send it: the
 * bound is widened outward by the spacing of doubles there and sent as a decimal string. Found by
 * the contract fuzzing run: one span from 2262 made every trace query of its project answer 503.
 */
function int64Bound(us: number, direction: -1 | 1): number | string {
  if (Number.isSafeInteger(us)) return us;
  const spacing = 2 ** (Math.floor(Math.log2(Math.abs(us))) - 52);
  return BigInt(us + direction * spacing).toString();
}

/** Numeric DateTime64 input is read as seconds only with 9 or 10 integer digits (1973-03-03 to
 * 2286-11-20); outside that span ClickHouse parses it differently or not at all. */
const NUMERIC_FROM_US = 1e14;
const NUMERIC_UNTIL_US = 1e16;

/** Unix microseconds → DateTime64(6) input. The numeric form is several times cheaper to build than
 * a calendar string; times outside the range it is unambiguous for keep the calendar form. */
export function tableTime(us: number): string {
  const frac = String(((us % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0');
  if (us >= NUMERIC_FROM_US && us < NUMERIC_UNTIL_US) return `${Math.floor(us / 1_000_000)}.${frac}`;
  return `${new Date(Math.floor(us / 1000)).toISOString().slice(0, 19).replace('T', ' ')}.${frac}`;
}

/**
 * Exact Unix microseconds of a span-table time as an Int64 parameter: a number while it is exact,
 * else a decimal string (times after 2255 pass 2^53 µs, which a double cannot hold).
 */
export function timeUsParam(s: string): number | string {
  const us = timeUs(s);
  if (Number.isSafeInteger(us)) return us;
  const calendar = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?/.exec(s);
  const [sec, frac] = calendar
    ? [BigInt(Date.parse(`${calendar[1]}T${calendar[2]}Z`) / 1000), (calendar[3] ?? '').padEnd(6, '0')]
    : [BigInt(s.split('.')[0] ?? '0'), (s.split('.')[1] ?? '').padEnd(6, '0').slice(0, 6)];
  return (sec * 1_000_000n + BigInt(frac)).toString();
}

/** Unix microseconds of a span-table time in either form the row type carries ("sec.ffffff" as
 * written, "YYYY-MM-DD hh:mm:ss.ffffff" as read back). */
export function timeUs(s: string): number {
  const calendar = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?/.exec(s);
  if (calendar) {
    const ms = Date.parse(`${calendar[1]}T${calendar[2]}Z`);
    return ms * 1000 + Number((calendar[3] ?? '').padEnd(6, '0'));
  }
  const [sec = '0', frac = ''] = s.split('.');
  return Number(sec) * 1_000_000 + Number(frac.padEnd(6, '0').slice(0, 6));
}
