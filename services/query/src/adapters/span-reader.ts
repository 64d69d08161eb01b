// Reads spans by id from the ClickHouse read model. Every query is scoped to one project and goes
// through the (project_id, trace_id, span_id) ordering key.
import type { Clickhouse } from '@llm/clickhouse';
import { unavailable } from '@llm/errors';

export interface StoredSpanRow {
  trace_id: string;
  span_id: string;
  parent_id: string;
  span_name: string;
  span_kind: string;
  span_type: string;
  trace_type: string;
  status_code: string;
  status_message: string;
  start_time: string;
  end_time: string;
  attributes: string;
  events: string;
  links: string;
  references: string;
  hashes: string;
  session_id: string;
  user_id: string;
  tokens_cumulative: Record<string, number>;
  costs_cumulative: Record<string, number>;
  errors_cumulative: number;
  created_at: string;
}

const COLUMNS = `trace_id, span_id, parent_id, span_name, span_kind, span_type, trace_type, status_code, status_message,
  toString(start_time) AS start_time, toString(end_time) AS end_time, attributes, events, links, references, hashes,
  session_id, user_id, tokens_cumulative, costs_cumulative, errors_cumulative, toString(created_at) AS created_at`;

export class SpanReader {
  constructor(private readonly ch: Clickhouse, private readonly table = 'spans') {}

  async byIds(projectId: string, traceIds: string[], spanIds: string[]): Promise<StoredSpanRow[]> {
    const where = ['project_id = {p:String}', 'is_deleted = 0'];
    if (traceIds.length) where.push('trace_id IN {t:Array(String)}');
    if (spanIds.length) where.push('span_id IN {s:Array(String)}');
    try {
      const res = await this.ch.client.query({
        query: `SELECT ${COLUMNS} FROM ${this.ch.database}.${this.table} FINAL WHERE ${where.join(' AND ')}
                ORDER BY start_time, span_id LIMIT 100000`,
        query_params: { p: projectId, t: traceIds, s: spanIds },
        format: 'JSONEachRow',
      });
      return await res.json<StoredSpanRow>();
    } catch (err) {
      throw unavailable('read_model_unavailable', 'The span store is not available; retry shortly.', err);
    }
  }
}
