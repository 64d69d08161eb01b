// Span and trace searches (compiled filter + window) over the time-ordered span table.
//
// ClickHouse reads a table in its ordering-key order and stops at the LIMIT — but not under FINAL,
// which must merge every version of the range first. So a page is found in two steps:
//  1. scan without FINAL, in order, for candidate keys. Every current row is physically present, so
//     the candidates are a superset of the answer in the right order (plus superseded versions and
//     rows whose newer version no longer matches);
//  2. re-check only those candidates with FINAL (a few granules, found through the time range and
//     the bloom filters), keeping the ones whose current version matches.
// If too few survive, the scan continues after the last candidate with a larger step.
// A span page is also bounded by bytes: the scan carries each candidate's estimated size (`length`
// reads only a String's size subcolumn), only candidates within the page's remaining byte budget are
// fetched, and a page cut by bytes ends early with a cursor (it always holds at least one span).
// Every search is bounded by its project's retention (RETAINED_SPANS_SQL) before anything is read.
import { RETAINED_SPANS_SQL, SPAN_ROW_BYTES_SQL, SPAN_TABLE_COLUMNS, locateTraces, timeRangesPredicate, timeUs, timeUsParam, type TraceRange } from '@llm/span-table';
import type { ReadModel } from '../read-model.ts';
import { DEFAULT_MAX_RESULT_BYTES, type StoredSpanRow } from '../span-reader.ts';

export interface SpanSearch {
  projectId: string;
  /** Compiled filter AND window (cursor included for span focus). */
  where: string;
  orderBy: string;
  order: 'ascending' | 'descending';
  limit: number;
  params: Record<string, unknown>;
}

export interface TraceSearch extends SpanSearch {
  /** Trace focus: predicate on grouped traces (the cursor) and the trace sort key expression. */
  having: string;
  traceKey: string;
  cursor?: { t: number; trace_id: string };
}

/** A trace found by a search, with its sort key and, when the search located it, its time range
 * (so that reading its spans does not look it up again). */
export interface TraceHit { trace_id: string; trace_key: string; range?: TraceRange }

/** A page of spans: at most `limit` rows, and whether more follow (a full page, or one cut by bytes). */
export interface SpanPage { rows: StoredSpanRow[]; more: boolean }

interface SpanKey { t: string; trace_id: string; span_id: string; b: string | number }

const FIRST_SCAN = 256;
/** Span candidates scanned and re-checked beyond what a page still needs. */
const RECHECK_SLACK = 4;
const GROWTH = 4;
/** Largest scan step: candidate keys travel back as query parameters, so a round stays well inside
 * the server's URL and query-size limits however sparse the matches are. */
const MAX_SCAN = 4096;

export class SpanSearcher {
  constructor(private readonly rm: ReadModel, readonly maxResultBytes = DEFAULT_MAX_RESULT_BYTES) {}

  /** Spans in window order: a page of at most `limit`, cut earlier when the next span would take the
   * page above `maxResultBytes` (estimated stored bytes). */
  async spans(search: SpanSearch): Promise<SpanPage> {
    const q = await this.retained(search);
    const want = q.limit + 1;
    const after = q.order === 'descending' ? '<' : '>';
    const out: StoredSpanRow[] = [];
    let budget = this.maxResultBytes;
    let cut = false;
    // Candidates are matching rows (unmerged), nearly all of them current: scan and re-check about
    // as many as the page still needs, more only when some did not survive.
    let scan = Math.min(want + RECHECK_SLACK, MAX_SCAN);
    let from: SpanKey | undefined;
    for (;;) {
      const resume = from
        ? ` AND start_time ${after}= {s_t:DateTime64(6, 'UTC')} AND (start_time, trace_id, span_id) ${after} ({s_t:DateTime64(6, 'UTC')}, {s_trace:String}, {s_span:String})`
        : '';
      const keys = await this.rm.run<SpanKey>(
        `SELECT toString(start_time) AS t, trace_id, span_id, ${SPAN_ROW_BYTES_SQL} AS b FROM ${this.rm.spans}
         WHERE ${q.where} AND is_deleted = 0${resume} ORDER BY ${q.orderBy} LIMIT ${scan}`,
        { ...q.params, s_t: from?.t, s_trace: from?.trace_id, s_span: from?.span_id },
      );
      // The candidates the page still needs that fit the remaining budget; the first one always,
      // while the page is empty.
      const need = want - out.length + RECHECK_SLACK;
      let take = 0;
      let sum = 0;
      let overBudget = false;
      for (const k of keys) {
        if (take >= need) break;
        const b = Number(k.b);
        if (sum + b > budget && (out.length > 0 || take > 0)) { overBudget = true; break; }
        sum += b;
        take++;
      }
      const considered = take < keys.length ? keys.slice(0, take) : keys;
      if (considered.length > 0) {
        const size = new Map(considered.map((k) => [keyOf(k), Number(k.b)]));
        for (const row of await this.currentSpans(q, considered)) {
          out.push(row);
          budget -= size.get(keyOf({ t: row.start_time, trace_id: row.trace_id, span_id: row.span_id })) ?? 0;
        }
      }
      if (out.length >= want) break;
      if (overBudget && out.length > 0) { cut = true; break; }
      if (take < keys.length) {
        // Cut by the budget with nothing kept, or by the need with too few surviving the re-check:
        // go on right after the last candidate considered.
        from = considered[considered.length - 1];
        continue;
      }
      if (keys.length < scan) break;
      from = keys[keys.length - 1];
      scan = Math.min(scan * GROWTH, MAX_SCAN);
    }
    return { rows: out.slice(0, q.limit), more: cut || out.length > q.limit };
  }

  /** The search with its project's retention bound. */
  private async retained<Q extends SpanSearch>(q: Q): Promise<Q> {
    return { ...q, where: `${q.where} AND ${RETAINED_SPANS_SQL}`, params: { ...q.params, ...await this.rm.retention(q.projectId, 'spans') } };
  }

  /** The current versions of candidate spans that still match, in window order. */
  private async currentSpans(q: SpanSearch, keys: readonly SpanKey[]): Promise<StoredSpanRow[]> {
    let lo = keys[0]!.t;
    let hi = lo;
    for (const k of keys) { if (k.t < lo) lo = k.t; if (k.t > hi) hi = k.t; }
    // Keyed by the whole sort key: a span moved to another start time has a superseded row at its old
    // key, and that candidate must not stand for (or duplicate) the current row found elsewhere.
    const wanted = new Set(keys.map(keyOf));
    const rows = await this.rm.run<StoredSpanRow & { k_t: string }>(
      `SELECT ${SPAN_TABLE_COLUMNS}, toString(start_time) AS k_t FROM ${this.rm.spans} FINAL
       WHERE ${q.where} AND is_deleted = 0 AND start_time BETWEEN {v_lo:DateTime64(6, 'UTC')} AND {v_hi:DateTime64(6, 'UTC')}
         AND trace_id IN {v_t:Array(String)} AND span_id IN {v_s:Array(String)}
       ORDER BY ${q.orderBy}`,
      { ...q.params, v_lo: lo, v_hi: hi, v_t: [...new Set(keys.map((k) => k.trace_id))], v_s: [...new Set(keys.map((k) => k.span_id))] },
    );
    return rows
      .filter((r) => wanted.has(keyOf({ t: r.k_t, trace_id: r.trace_id, span_id: r.span_id })))
      .map(({ k_t: _k, ...row }) => row);
  }

  /**
   * Trace ids whose spans match, with their sort key (latest matching start_time in the window), in
   * window order, `limit + 1` of them when there are that many.
   */
  async traces(search: TraceSearch): Promise<TraceHit[]> {
    const q = await this.retained(search);
    // The scan finds each trace at its key only when reading newest first; ascending pages group.
    if (q.order !== 'descending') return this.groupedTraces(q);
    const want = q.limit + 1;
    const cursor = q.cursor ? { us: q.cursor.t, trace_id: q.cursor.trace_id } : undefined;
    const below = (a: { us: number; trace_id: string }, b: { us: number; trace_id: string }): boolean =>
      a.us < b.us || (a.us === b.us && a.trace_id < b.trace_id);
    // Traces found so far with their true key; a trace is final once the scan has passed its key.
    const found = new Map<string, { us: number; key: string; range: TraceRange }>();
    const seen = new Set<string>();
    let frontier: { t: string; us: number; trace_id: string } | undefined = cursor
      ? { t: '', us: cursor.us, trace_id: cursor.trace_id }
      : undefined;
    let scan = Math.min(Math.max(FIRST_SCAN, want * 10), MAX_SCAN);
    for (;;) {
      const resume = frontier
        ? ` AND start_time <= fromUnixTimestamp64Micro({s_us:Int64}) AND (start_time, trace_id) < (fromUnixTimestamp64Micro({s_us:Int64}), {s_trace:String})`
        : '';
      const rows = await this.rm.run<{ t: string; trace_id: string }>(
        `SELECT toString(start_time) AS t, trace_id FROM ${this.rm.spans}
         WHERE ${q.where} AND is_deleted = 0${resume} ORDER BY start_time DESC, trace_id DESC LIMIT ${scan}`,
        // The frontier's own time text when it came from a row: exact past 2^53 µs, where `us` is not.
        { ...q.params, s_us: frontier ? (frontier.t ? timeUsParam(frontier.t) : frontier.us) : undefined, s_trace: frontier?.trace_id },
      );
      const fresh = [...new Set(rows.map((r) => r.trace_id))].filter((id) => !seen.has(id));
      for (const id of fresh) seen.add(id);
      for (const [id, { key, range }] of await this.trueKeys(q, fresh)) {
        const us = timeUs(key);
        // A trace whose key is not below the cursor was on an earlier page.
        if (cursor && !below({ us, trace_id: id }, cursor)) continue;
        found.set(id, { us, key, range });
      }
      const exhausted = rows.length < scan;
      const last = rows[rows.length - 1];
      if (last) frontier = { t: last.t, us: timeUs(last.t), trace_id: last.trace_id };
      // Every trace whose key is at or above the frontier has been seen by now.
      const ready = [...found].filter(([id, k]) => exhausted || !frontier || !below({ us: k.us, trace_id: id }, frontier));
      if (ready.length >= want || exhausted) {
        ready.sort(([a, ka], [b, kb]) => (kb.us - ka.us) || (a < b ? 1 : a > b ? -1 : 0));
        return ready.slice(0, want).map(([trace_id, k]) => ({ trace_id, trace_key: k.key, range: k.range }));
      }
      scan = Math.min(scan * GROWTH, MAX_SCAN);
    }
  }

  /** Each trace's key over the current versions of its matching spans in the window (none: absent),
   * with the trace's time range from the trace index. */
  private async trueKeys(q: TraceSearch, traceIds: string[]): Promise<Map<string, { key: string; range: TraceRange }>> {
    if (traceIds.length === 0) return new Map();
    const ranges = await this.rm.guard(() => locateTraces(this.rm.ch, this.rm.tables, q.projectId, traceIds));
    if (ranges.length === 0) return new Map();
    const time = timeRangesPredicate(ranges, 'k');
    const rows = await this.rm.run<{ trace_id: string; k: string }>(
      `SELECT trace_id, toString(${q.traceKey}) AS k FROM ${this.rm.spans} FINAL
       WHERE ${q.where} AND is_deleted = 0 AND ${time.sql} AND trace_id IN {k_t:Array(String)} GROUP BY trace_id`,
      { ...q.params, ...time.params, k_t: ranges.map((r) => r.trace_id) },
    );
    const rangeOf = new Map(ranges.map((r) => [r.trace_id, r]));
    return new Map(rows.map((r) => [r.trace_id, { key: r.k, range: rangeOf.get(r.trace_id)! }]));
  }

  /** Trace search by grouping every matching span of the window (ascending order). */
  private groupedTraces(q: TraceSearch): Promise<TraceHit[]> {
    return this.rm.run(`SELECT trace_id, toString(${q.traceKey}) AS trace_key FROM ${this.rm.spans} FINAL
      WHERE ${q.where} AND is_deleted = 0 GROUP BY trace_id HAVING ${q.having} ORDER BY ${q.orderBy} LIMIT ${q.limit + 1}`, q.params);
  }
}

/** A span's whole sort key (as the scan returns it) as one string. */
function keyOf(k: { t: string; trace_id: string; span_id: string }): string {
  return `${k.t}|${k.trace_id}|${k.span_id}`;
}
