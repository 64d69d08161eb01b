// The pages of a span export: consecutive ranges of the span table's sort key, each read whole.
//
// The query routes' page search (span-search.ts) re-checks a page's candidates with FINAL by listing
// their ids, which suits a page of a hundred spans; an export reads thousands per page, and lists of
// thousands of ids as query parameters cost more than the rows. So a page here is a key range:
//  1. scan without FINAL, in window order, for the next `limit` candidate keys (and their estimated
//     bytes) after the cursor; the page ends at the last candidate that fits `maxBytes` (at least one);
//  2. read that key range [cursor, last] with FINAL: the current version of every span in it that
//     matches. All versions of a span share its sort key, so each falls in exactly one range.
// When the scan finds fewer candidates than it asked for, the range is open towards the window's end.
import { RETAINED_SPANS_SQL, SPAN_ROW_BYTES_SQL, SPAN_TABLE_COLUMNS } from '@llm/span-table';
import type { ReadModel, StoredSpanRow } from '@llm/span-read';

export interface ExportSearch {
  projectId: string;
  /** Compiled filter AND window (the request's own cursor included). */
  where: string;
  params: Record<string, unknown>;
  order: 'ascending' | 'descending';
  orderBy: string;
}

/** A span's place in the sort key, as the scan returns it. */
export interface ExportCursor { t: string; trace_id: string; span_id: string }

export interface ExportPage {
  rows: StoredSpanRow[];
  /** Where the next page starts (exclusive); none = this was the last page. */
  next: ExportCursor | undefined;
}

export class ExportReader {
  constructor(private readonly rm: ReadModel, private readonly limit: number, private readonly maxBytes: number) {}

  async page(q: ExportSearch, after: ExportCursor | undefined): Promise<ExportPage> {
    const beyond = q.order === 'descending' ? '<' : '>';
    const upTo = q.order === 'descending' ? '>=' : '<=';
    const where = `${q.where} AND ${RETAINED_SPANS_SQL} AND is_deleted = 0`;
    const params: Record<string, unknown> = { ...q.params, ...await this.rm.retention(q.projectId, 'spans') };
    let from = '';
    if (after) {
      from = ` AND start_time ${beyond}= {x_t:DateTime64(6, 'UTC')} AND (start_time, trace_id, span_id) ${beyond} ({x_t:DateTime64(6, 'UTC')}, {x_trace:String}, {x_span:String})`;
      Object.assign(params, { x_t: after.t, x_trace: after.trace_id, x_span: after.span_id });
    }
    const keys = await this.rm.run<ExportCursor & { b: string | number }>(
      `SELECT toString(start_time) AS t, trace_id, span_id, ${SPAN_ROW_BYTES_SQL} AS b FROM ${this.rm.spans}
       WHERE ${where}${from} ORDER BY ${q.orderBy} LIMIT ${this.limit}`,
      params,
    );
    if (keys.length === 0) return { rows: [], next: undefined };
    let take = 0;
    let bytes = 0;
    for (const k of keys) {
      bytes += Number(k.b);
      if (take > 0 && bytes > this.maxBytes) break;
      take++;
    }
    // The whole rest of the window when the scan ran out; otherwise up to the last key that fits.
    const last = take === keys.length && keys.length < this.limit ? undefined : keys[take - 1]!;
    const to = last
      ? ` AND start_time ${upTo} {y_t:DateTime64(6, 'UTC')} AND (start_time, trace_id, span_id) ${upTo} ({y_t:DateTime64(6, 'UTC')}, {y_trace:String}, {y_span:String})`
      : '';
    const rows = await this.rm.run<StoredSpanRow>(
      `SELECT ${SPAN_TABLE_COLUMNS} FROM ${this.rm.spans} FINAL WHERE ${where}${from}${to} ORDER BY ${q.orderBy}`,
      last ? { ...params, y_t: last.t, y_trace: last.trace_id, y_span: last.span_id } : params,
    );
    return { rows, next: last ? { t: last.t, trace_id: last.trace_id, span_id: last.span_id } : undefined };
  }
}
