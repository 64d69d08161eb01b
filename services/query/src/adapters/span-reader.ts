// Reads spans by id from the ClickHouse read model. Every query is scoped to one project and goes
// through the (project_id, trace_id, span_id) ordering key.
import type { Clickhouse } from '@llm/clickhouse';
import { SPAN_TABLE_COLUMNS, type SpanTableRow } from '@llm/span-table';
import { invalid, unavailable } from '@llm/errors';

/** Most spans one read by id returns. */
export const MAX_SPANS_BY_ID = 100_000;

/** Reads return whole table rows (the shared contract of the span table). */
export type StoredSpanRow = SpanTableRow;

const COLUMNS = SPAN_TABLE_COLUMNS;

export class SpanReader {
  constructor(private readonly ch: Clickhouse, private readonly table = 'spans') {}

  /** Spans matching a compiled filter and window, in window order (limit + 1 rows: the extra one
   * tells whether a next page exists). */
  async search(q: { where: string; orderBy: string; limit: number; params: Record<string, unknown> }): Promise<StoredSpanRow[]> {
    return this.run(`SELECT ${COLUMNS} FROM ${this.ch.database}.${this.table} FINAL
      WHERE ${q.where} AND is_deleted = 0 ORDER BY ${q.orderBy} LIMIT ${q.limit + 1}`, q.params);
  }

  /** Trace ids whose spans match, with their sort key, in window order (limit + 1 rows). */
  async searchTraces(q: { where: string; having: string; orderBy: string; traceKey: string; limit: number; params: Record<string, unknown> }): Promise<Array<{ trace_id: string; trace_key: string }>> {
    return this.run(`SELECT trace_id, toString(${q.traceKey}) AS trace_key FROM ${this.ch.database}.${this.table} FINAL
      WHERE ${q.where} AND is_deleted = 0 GROUP BY trace_id HAVING ${q.having} ORDER BY ${q.orderBy} LIMIT ${q.limit + 1}`, q.params);
  }

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
    const where = ['project_id = {p:String}', 'is_deleted = 0'];
    if (q.oldestUs !== undefined) where.push('start_time >= fromUnixTimestamp64Micro({oldest:Int64})');
    if (q.newestUs !== undefined) where.push('start_time < fromUnixTimestamp64Micro({newest:Int64})');
    // `kind` is one of two literals chosen by the route, never user text.
    const id = `JSONExtractString(attributes, 'ag', '${q.kind === 'user' ? 'user' : 'session'}', 'id')`;
    return this.run(`SELECT id, toString(activity_us) AS activity_us FROM (
        SELECT ${id} AS id, toUnixTimestamp64Micro(${q.realtime ? 'max' : 'min'}(start_time)) AS activity_us
        FROM ${this.ch.database}.${this.table} FINAL WHERE ${where.join(' AND ')} GROUP BY id HAVING id != '')
      ${q.after ? `WHERE (activity_us, id) ${cmp} ({ct:Int64}, {cid:String})` : ''}
      ORDER BY activity_us ${dir}, id ${dir} LIMIT ${q.limit + 1}`,
    { p: q.projectId, oldest: q.oldestUs, newest: q.newestUs, ct: q.after?.t, cid: q.after?.id });
  }

  private async run<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
    try {
      // Aliases such as `toString(start_time) AS start_time` must not shadow the columns that the
      // compiled filter and ordering refer to.
      const res = await this.ch.client.query({ query, query_params: params, format: 'JSONEachRow', clickhouse_settings: { prefer_column_name_to_alias: 1 } });
      return await res.json<T>();
    } catch (err) {
      throw unavailable('read_model_unavailable', 'The span store could not answer; retry shortly.', err);
    }
  }

  async byIds(projectId: string, traceIds: string[], spanIds: string[]): Promise<StoredSpanRow[]> {
    const where = ['project_id = {p:String}', 'is_deleted = 0'];
    if (traceIds.length) where.push('trace_id IN {t:Array(String)}');
    if (spanIds.length) where.push('span_id IN {s:Array(String)}');
    let rows: StoredSpanRow[];
    try {
      const res = await this.ch.client.query({
        query: `SELECT ${COLUMNS} FROM ${this.ch.database}.${this.table} FINAL WHERE ${where.join(' AND ')}
                ORDER BY start_time, span_id LIMIT ${MAX_SPANS_BY_ID + 1}`,
        query_params: { p: projectId, t: traceIds, s: spanIds },
        format: 'JSONEachRow',
      });
      rows = await res.json<StoredSpanRow>();
    } catch (err) {
      throw unavailable('read_model_unavailable', 'The span store is not available; retry shortly.', err);
    }
    // Never a silently cut answer: above the cap the caller must page with POST /spans/query.
    if (rows.length > MAX_SPANS_BY_ID) {
      throw invalid('too_many_spans', `More than ${MAX_SPANS_BY_ID} spans match these ids; page through them with POST /spans/query.`);
    }
    return rows;
  }
}
