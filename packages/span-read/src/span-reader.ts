// Reads spans by id, and session/user activity, from the ClickHouse read model. Every query is scoped
// to one project; the span table is ordered by (project_id, start_time), so reads by trace id find
// the traces' time ranges in the trace index first.
import { locateTraces, timeRangesPredicate, spanRowStoredBytes, type TraceRange, RETAINED_SPANS_SQL, SPAN_ROW_BYTES_SQL, SPAN_TABLE_COLUMNS, type SpanTableRow } from '@llm/span-table';
import { AppError } from '@llm/errors';
import { ResultOverflow, type ReadModel } from './read-model.ts';

/** Most spans one read by id returns. */
export const MAX_SPANS_BY_ID = 100_000;
/** Default of the approximate stored bytes one read may return (`QUERY_MAX_RESULT_BYTES`). */
export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024 * 1024;

const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MiB`;

/** Above the span-count bound: 413, like the byte bound (the result, not the request, is too large). */
export function tooManySpans(what: string): AppError {
  return new AppError({
    code: 'too_many_spans', kind: 'too_large',
    message: `More than ${MAX_SPANS_BY_ID} spans match ${what}; page through them with POST /spans/query.`,
    details: { max_spans: MAX_SPANS_BY_ID },
  });
}

/** Above the byte bound: 413 naming the limit, before anything is fetched. */
export function resultTooLarge(what: string, estimatedBytes: number, maxBytes: number): AppError {
  return new AppError({
    code: 'result_too_large', kind: 'too_large',
    message: `The stored spans of ${what} take about ${mib(estimatedBytes)}, above the ${mib(maxBytes)} limit of one response `
      + '(QUERY_MAX_RESULT_BYTES); page through them with POST /spans/query.',
    details: { max_result_bytes: maxBytes, estimated_bytes: estimatedBytes },
  });
}

/** Spans and approximate stored bytes of one trace (or of the span ids read without a trace). */
export interface TraceSize { trace_id: string; spans: number; bytes: number }

interface Selection { where: string; params: Record<string, unknown> }

/** Reads return whole table rows (the shared contract of the span table). */
export type StoredSpanRow = SpanTableRow;

export class SpanReader {
  constructor(private readonly rm: ReadModel, readonly maxResultBytes = DEFAULT_MAX_RESULT_BYTES) {}

  /**
   * Distinct `ag.session.id` / `ag.user.id` values of any span in the project, with their activity
   * time (first or last span start), ordered by (activity, id) and cut after a cursor.
   */
  async activity(q: {
    projectId: string; kind: 'session' | 'user'; realtime: boolean; oldestUs?: number; newestUs?: number;
    order: 'ascending' | 'descending'; limit: number; after?: { t: number; id: string };
  }): Promise<Array<{ id: string; activity_us: string }>> {
    const dir = q.order === 'ascending' ? 'ASC' : 'DESC';
    const cmp = q.order === 'ascending' ? '>' : '<';
    // `kind` picks one of two column names, never user text.
    const id = q.kind === 'user' ? 'any_user_id' : 'any_session_id';
    // Spans without the id are filtered out in WHERE (applied to the merged current versions), a
    // third less work than grouping them and dropping the empty group after.
    const where = ['project_id = {p:String}', RETAINED_SPANS_SQL, 'is_deleted = 0', `${id} != ''`];
    if (q.oldestUs !== undefined) where.push('start_time >= fromUnixTimestamp64Micro({oldest:Int64})');
    if (q.newestUs !== undefined) where.push('start_time < fromUnixTimestamp64Micro({newest:Int64})');
    return this.rm.run(`SELECT id, toString(activity_us) AS activity_us FROM (
        SELECT ${id} AS id, toUnixTimestamp64Micro(${q.realtime ? 'max' : 'min'}(start_time)) AS activity_us
        FROM ${this.rm.spans} FINAL WHERE ${where.join(' AND ')} GROUP BY id)
      ${q.after ? `WHERE (activity_us, id) ${cmp} ({ct:Int64}, {cid:String})` : ''}
      ORDER BY activity_us ${dir}, id ${dir} LIMIT ${q.limit + 1}`,
    { p: q.projectId, ...await this.rm.retention(q.projectId, 'spans'), oldest: q.oldestUs, newest: q.newestUs, ct: q.after?.t, cid: q.after?.id });
  }

  /**
   * Every current span of the traces and/or span ids, or a 413 when they pass MAX_SPANS_BY_ID or
   * `maxResultBytes` (estimated stored bytes) — never a silently cut answer, never a huge response.
   * The rows are fetched at once and sized as they come back; ClickHouse stops a result at twice the
   * bound, and only then are they sized in ClickHouse first (count and bytes per trace).
   */
  async byIds(projectId: string, traceIds: string[], spanIds: string[]): Promise<StoredSpanRow[]> {
    if (traceIds.length === 1 && spanIds.length === 0) {
      const rows = await this.oneTrace(projectId, traceIds[0]!);
      if (rows) return rows;
    }
    const sel = await this.select(projectId, traceIds, spanIds);
    if (!sel) return [];
    const what = traceIds.length === 1 && spanIds.length === 0 ? `trace ${traceIds[0]}` : 'these ids';
    const fetched = await this.boundedFetch(sel);
    if (fetched) {
      let total = 0;
      for (const r of fetched) total += spanRowStoredBytes(r);
      if (total > this.maxResultBytes) throw resultTooLarge(what, total, this.maxResultBytes);
      return fetched;
    }
    const sizes = await this.sizesOf(sel);
    const spans = sizes.reduce((n, t) => n + t.spans, 0);
    const bytes = sizes.reduce((n, t) => n + t.bytes, 0);
    if (spans > MAX_SPANS_BY_ID) throw tooManySpans(what);
    if (bytes > this.maxResultBytes) throw resultTooLarge(what, bytes, this.maxResultBytes);
    return spans === 0 ? [] : this.fetch(sel, what);
  }

  /**
   * The spans of a page of whole traces (ids in page order), cut after the longest prefix of traces
   * that stays within MAX_SPANS_BY_ID and `maxResultBytes`: `kept` traces are in `rows`, the caller
   * returns a cursor after the last of them. A first trace above the bounds alone is refused (413).
   * `located`: the traces' ranges when the caller already has them (a search located them).
   */
  async traceRows(projectId: string, traceIds: string[], located?: TraceRange[]): Promise<{ rows: StoredSpanRow[]; kept: number }> {
    if (traceIds.length === 0) return { rows: [], kept: 0 };
    const sel = await this.select(projectId, traceIds, [], located);
    if (!sel) return { rows: [], kept: traceIds.length };
    // Usually the page is well inside the bounds: fetch it at once (ClickHouse stops it at twice the
    // byte bound) and size its traces from the rows; only a page near the bounds is sized first.
    const fetched = await this.boundedFetch(sel);
    if (fetched) {
      const size = new Map<string, TraceSize>();
      for (const r of fetched) {
        const t = size.get(r.trace_id) ?? { trace_id: r.trace_id, spans: 0, bytes: 0 };
        t.spans++;
        t.bytes += spanRowStoredBytes(r);
        size.set(r.trace_id, t);
      }
      const kept = this.keptTraces(traceIds, size);
      if (kept === traceIds.length) return { rows: fetched, kept };
      const keep = new Set(traceIds.slice(0, kept));
      return { rows: fetched.filter((r) => keep.has(r.trace_id)), kept };
    }
    const size = new Map((await this.sizesOf(sel)).map((t) => [t.trace_id, t]));
    const kept = this.keptTraces(traceIds, size);
    const spans = traceIds.slice(0, kept).reduce((n, id) => n + (size.get(id)?.spans ?? 0), 0);
    if (kept === traceIds.length) return { rows: spans === 0 ? [] : await this.fetch(sel, 'these traces'), kept };
    // The located time ranges still cover the kept traces; only the id list narrows.
    return { rows: spans === 0 ? [] : await this.fetch({ where: sel.where, params: { ...sel.params, t: traceIds.slice(0, kept) } }, 'these traces'), kept };
  }

  /** How many traces of the page, in page order, fit the bounds together; a first trace above them alone is refused. */
  private keptTraces(traceIds: string[], size: Map<string, TraceSize>): number {
    let spans = 0;
    let bytes = 0;
    let kept = 0;
    for (const id of traceIds) {
      const t = size.get(id);
      if (t) {
        if (kept === 0 && t.spans > MAX_SPANS_BY_ID) throw tooManySpans(`trace ${id}`);
        if (kept === 0 && t.bytes > this.maxResultBytes) throw resultTooLarge(`trace ${id}`, t.bytes, this.maxResultBytes);
        if (spans + t.spans > MAX_SPANS_BY_ID || bytes + t.bytes > this.maxResultBytes) break;
        spans += t.spans;
        bytes += t.bytes;
      }
      kept++;
    }
    return kept;
  }

  /** The selection's rows, or undefined when they pass MAX_SPANS_BY_ID or twice the byte bound
   * (ClickHouse stops building the result there; the caller then sizes first). */
  private async boundedFetch(sel: Selection): Promise<StoredSpanRow[] | undefined> {
    try {
      const rows = await this.rm.run<StoredSpanRow>(`SELECT ${SPAN_TABLE_COLUMNS} FROM ${this.rm.spans} FINAL WHERE ${sel.where}
                ORDER BY start_time, span_id LIMIT ${MAX_SPANS_BY_ID + 1}`, sel.params, { maxBytes: this.overflowBytes() });
      return rows.length > MAX_SPANS_BY_ID ? undefined : rows;
    } catch (err) {
      if (err instanceof ResultOverflow) return undefined;
      throw err;
    }
  }

  /** Where ClickHouse stops a result: above any answer this reader can give (in-memory blocks are
   * larger than the estimate), so memory stays bounded. */
  private overflowBytes(): number {
    return 2 * this.maxResultBytes + 1024 * 1024;
  }

  /**
   * One trace (GET /traces/{id}, the dashboards' and the SDKs' most frequent read, polled until a
   * trace is visible): its time range from the trace index first, then its spans in that range,
   * with the byte bound checked on the rows themselves (the same estimate the sizing query computes).
   * A trace the index does not know answers at once: on the embedded engine that poll costs 5 ms
   * instead of 16 (one statement with the index in a subquery), and a found trace 22 ms instead of
   * 24 (measured on the evaluations bench's data). ClickHouse stops the result at twice the bound,
   * so memory stays bounded; a trace that far over the bound is sized the two-step way, so the 413
   * still names the whole trace's bytes. Undefined: stopped by ClickHouse, answer through the sizing path.
   */
  private async oneTrace(projectId: string, traceId: string): Promise<StoredSpanRow[] | undefined> {
    const ranges = await this.rm.guard(() => locateTraces(this.rm.ch, this.rm.tables, projectId, [traceId]));
    if (ranges.length === 0) return [];
    const time = timeRangesPredicate(ranges);
    let rows: StoredSpanRow[];
    try {
      rows = await this.rm.run<StoredSpanRow>(
        `SELECT ${SPAN_TABLE_COLUMNS} FROM ${this.rm.spans} FINAL
         WHERE project_id = {p:String} AND ${RETAINED_SPANS_SQL} AND is_deleted = 0 AND ${time.sql} AND trace_id = {t:String}
         ORDER BY start_time, span_id LIMIT ${MAX_SPANS_BY_ID + 1}`,
        { p: projectId, t: traceId, ...await this.rm.retention(projectId, 'spans'), ...time.params },
        { maxBytes: this.overflowBytes() },
      );
    } catch (err) {
      if (err instanceof ResultOverflow) return undefined;
      throw err;
    }
    if (rows.length > MAX_SPANS_BY_ID) throw tooManySpans(`trace ${traceId}`);
    let bytes = 0;
    for (const r of rows) bytes += spanRowStoredBytes(r);
    if (bytes > this.maxResultBytes) throw resultTooLarge(`trace ${traceId}`, bytes, this.maxResultBytes);
    return rows;
  }

  /** The WHERE clause of a read by ids; undefined when none of the traces is known. */
  private async select(projectId: string, traceIds: string[], spanIds: string[], located?: TraceRange[]): Promise<Selection | undefined> {
    const where = ['project_id = {p:String}', RETAINED_SPANS_SQL, 'is_deleted = 0'];
    let params: Record<string, unknown> = { p: projectId, ...await this.rm.retention(projectId, 'spans'), t: traceIds, s: spanIds };
    if (traceIds.length) {
      const ranges = located ?? await this.rm.guard(() => locateTraces(this.rm.ch, this.rm.tables, projectId, traceIds));
      if (ranges.length === 0) return undefined;
      const time = timeRangesPredicate(ranges);
      where.push(time.sql, 'trace_id IN {t:Array(String)}');
      params = { ...params, ...time.params, t: ranges.map((r) => r.trace_id) };
    }
    if (spanIds.length) where.push('span_id IN {s:Array(String)}');
    return { where: where.join(' AND '), params };
  }

  /** Count and estimated bytes per trace, computed in ClickHouse (`length` reads only sizes). */
  private async sizesOf(sel: Selection): Promise<TraceSize[]> {
    const rows = await this.rm.run<{ trace_id: string; n: string | number; b: string | number }>(
      `SELECT trace_id, count() AS n, sum(${SPAN_ROW_BYTES_SQL}) AS b FROM ${this.rm.spans} FINAL WHERE ${sel.where} GROUP BY trace_id`,
      sel.params,
    );
    return rows.map((r) => ({ trace_id: r.trace_id, spans: Number(r.n), bytes: Number(r.b) }));
  }

  private async fetch(sel: Selection, what: string): Promise<StoredSpanRow[]> {
    const rows = await this.rm.run<StoredSpanRow>(`SELECT ${SPAN_TABLE_COLUMNS} FROM ${this.rm.spans} FINAL WHERE ${sel.where}
                ORDER BY start_time, span_id LIMIT ${MAX_SPANS_BY_ID + 1}`, sel.params);
    // Spans written between sizing and fetching can still cross the count bound: refuse then too.
    if (rows.length > MAX_SPANS_BY_ID) throw tooManySpans(what);
    return rows;
  }
}
