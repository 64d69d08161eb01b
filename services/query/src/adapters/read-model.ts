// The query side's one way of running a read-model query: parameterized, with a time limit enforced
// by ClickHouse, and every failure (timeout included) turned into a 503 with Retry-After — never an
// empty result.
import type { Clickhouse } from '@llm/clickhouse';
import { unavailable } from '@llm/errors';
import { spanTables, type SpanTables } from '@llm/span-table';
import { timedRead } from './read-timing.ts';

/** Default limit on one read-model query. */
export const DEFAULT_QUERY_TIMEOUT_MS = 15_000;

export class ReadModel {
  readonly tables: SpanTables = spanTables();

  constructor(readonly ch: Clickhouse, private readonly timeoutMs = DEFAULT_QUERY_TIMEOUT_MS) {}

  /** `<db>.<table>` of the span table. */
  get spans(): string { return `${this.ch.database}.${this.tables.spans}`; }

  /** Runs any read-model access; a failure becomes the 503 every read answers with. */
  async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await timedRead('clickhouse', fn);
    } catch (err) {
      throw unavailable('read_model_unavailable', 'The span store could not answer in time; retry shortly.', err);
    }
  }

  run<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
    return this.guard(async () => {
      // Aliases such as `toString(start_time) AS start_time` must not shadow the columns that the
      // compiled filter and ordering refer to (prefer_column_name_to_alias). Skip indexes stay on
      // under FINAL, in exact mode: the session and user bloom filters index columns that a newer
      // version of a row may change, so granules they select are widened to the newer parts.
      const res = await this.ch.client.query({
        query, query_params: params, format: 'JSONEachRow',
        clickhouse_settings: {
          prefer_column_name_to_alias: 1,
          use_skip_indexes_if_final: 1,
          use_skip_indexes_if_final_exact_mode: 1,
          max_execution_time: Math.max(1, Math.ceil(this.timeoutMs / 1000)),
          timeout_overflow_mode: 'throw',
        },
      });
      return res.json<T>();
    });
  }
}
