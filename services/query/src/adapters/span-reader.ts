// Reads spans by id, and session/user activity, from the ClickHouse read model. Every query is scoped
// to one project; the span table is ordered by (project_id, start_time), so reads by trace id find
// the traces' time ranges in the trace index first.
import { locateTraces, timeRangesPredicate, SPAN_TABLE_COLUMNS, type SpanTableRow } from '@llm/span-table';
import { invalid } from '@llm/errors';
import type { ReadModel } from './read-model.ts';

/** Most spans one read by id returns. */
export const MAX_SPANS_BY_ID = 100_000;

/** Reads return whole table rows (the shared contract of the span table). */
export type StoredSpanRow = SpanTableRow;

export class SpanReader {
  constructor(private readonly rm: ReadModel) {}

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
    const where = ['project_id = {p:String}', 'is_deleted = 0', `${id} != ''`];
    if (q.oldestUs !== undefined) where.push('start_time >= fromUnixTimestamp64Micro({oldest:Int64})');
    if (q.newestUs !== undefined) where.push('start_time < fromUnixTimestamp64Micro({newest:Int64})');
    return this.rm.run(`SELECT id, toString(activity_us) AS activity_us FROM (
        SELECT ${id} AS id, toUnixTimestamp64Micro(${q.realtime ? 'max' : 'min'}(start_time)) AS activity_us
        FROM ${this.rm.spans} FINAL WHERE ${where.join(' AND ')} GROUP BY id)
      ${q.after ? `WHERE (activity_us, id) ${cmp} ({ct:Int64}, {cid:String})` : ''}
      ORDER BY activity_us ${dir}, id ${dir} LIMIT ${q.limit + 1}`,
    { p: q.projectId, oldest: q.oldestUs, newest: q.newestUs, ct: q.after?.t, cid: q.after?.id });
  }

  async byIds(projectId: string, traceIds: string[], spanIds: string[]): Promise<StoredSpanRow[]> {
    const where = ['project_id = {p:String}', 'is_deleted = 0'];
    let params: Record<string, unknown> = { p: projectId, t: traceIds, s: spanIds };
    if (traceIds.length) {
      const ranges = await this.rm.guard(() => locateTraces(this.rm.ch, this.rm.tables, projectId, traceIds));
      if (ranges.length === 0) return [];
      const time = timeRangesPredicate(ranges);
      where.push(time.sql, 'trace_id IN {t:Array(String)}');
      params = { ...params, ...time.params, t: ranges.map((r) => r.trace_id) };
    }
    if (spanIds.length) where.push('span_id IN {s:Array(String)}');
    const rows = await this.rm.run<StoredSpanRow>(`SELECT ${SPAN_TABLE_COLUMNS} FROM ${this.rm.spans} FINAL WHERE ${where.join(' AND ')}
                ORDER BY start_time, span_id LIMIT ${MAX_SPANS_BY_ID + 1}`, params);
    // Never a silently cut answer: above the cap the caller must page with POST /spans/query.
    if (rows.length > MAX_SPANS_BY_ID) {
      throw invalid('too_many_spans', `More than ${MAX_SPANS_BY_ID} spans match these ids; page through them with POST /spans/query.`);
    }
    return rows;
  }
}
