// The query side's one way of running a read-model query: parameterized, with a time limit enforced
// by ClickHouse, and every failure (timeout included) turned into a 503 with Retry-After — never an
// empty result. Every read of the span table or the events log carries its project's retention bound
// (issue 30): `run` refuses a query on either table that does not (a programming error, never a
// silent read of expired data), and `retention` gives the bound's parameter.
import type { RetentionHorizon } from '@llm/access';
import type { Clickhouse } from '@llm/clickhouse';
import { unavailable } from '@llm/errors';
import { RETAINED_FROM_PARAM, retainedFromUs, spanTables, type SpanTables } from '@llm/span-table';
import { timedRead } from './read-timing.ts';

/** A project's retention horizon (packages/accounts-read retentionHorizons); none = nothing expires. */
export type HorizonOf = (projectId: string) => Promise<RetentionHorizon>;

/** The events table; its schema lives in services/projector-events/migrations. */
export const EVENTS_TABLE = 'platform_events';

/** Default limit on one read-model query. */
export const DEFAULT_QUERY_TIMEOUT_MS = 15_000;

/** ClickHouse's code for a result above `max_result_bytes` / `max_result_rows`. */
const TOO_MANY_ROWS_OR_BYTES = 396;

/** A read whose result ClickHouse stopped at the caller's bound (ResultLimits). */
export class ResultOverflow extends Error {
  constructor(cause: unknown) {
    super('the result passed the read\'s own byte bound', { cause });
    this.name = 'ResultOverflow';
  }
}

/** A bound ClickHouse enforces while it builds the result (bytes of the result blocks in memory). */
export interface ResultLimits { maxBytes: number }

export class ReadModel {
  readonly tables: SpanTables = spanTables();

  constructor(readonly ch: Clickhouse, private readonly timeoutMs = DEFAULT_QUERY_TIMEOUT_MS, private readonly horizonOf?: HorizonOf) {}

  /** `<db>.<table>` of the span table. */
  get spans(): string { return `${this.ch.database}.${this.tables.spans}`; }

  /** `<db>.<table>` of the root spans (the span table's rows of roots only). */
  get roots(): string { return `${this.ch.database}.${this.tables.roots}`; }

  /** `<db>.<table>` of the events log. */
  get events(): string { return `${this.ch.database}.${EVENTS_TABLE}`; }

  /**
   * The retention bound's parameter (`{retained_from_us:Int64}`) for the project's spans or events.
   * A horizon that cannot be read is a 503 like any read-model failure: reading without it could
   * show expired data.
   */
  async retention(projectId: string, data: 'spans' | 'events'): Promise<{ [RETAINED_FROM_PARAM]: number }> {
    if (!this.horizonOf) return { [RETAINED_FROM_PARAM]: retainedFromUs(undefined) };
    let h: RetentionHorizon;
    try {
      h = await this.horizonOf(projectId);
    } catch (err) {
      throw unavailable('retention_unavailable', 'The project\'s retention could not be read; retry shortly.', err);
    }
    return { [RETAINED_FROM_PARAM]: retainedFromUs(data === 'spans' ? h.spansFromUs : h.eventsFromUs) };
  }

  /** Runs any read-model access; a failure becomes the 503 every read answers with — except a result
   * cut by the caller's own `max_result_bytes`/`max_result_rows` (ResultOverflow), which the caller sizes. */
  async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await timedRead('clickhouse', fn);
    } catch (err) {
      if (Number((err as { code?: unknown } | null)?.code) === TOO_MANY_ROWS_OR_BYTES) throw new ResultOverflow(err);
      throw unavailable('read_model_unavailable', 'The span store could not answer in time; retry shortly.', err);
    }
  }

  run<T>(query: string, params: Record<string, unknown>, limits?: ResultLimits): Promise<T[]> {
    if ((query.includes(this.spans) || query.includes(this.roots) || query.includes(this.events))
      && (!query.includes(`{${RETAINED_FROM_PARAM}:Int64}`) || params[RETAINED_FROM_PARAM] === undefined)) {
      return Promise.reject(new Error('a read of the span table or the events log without its retention bound'));
    }
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
          ...(limits ? { max_result_bytes: String(limits.maxBytes), result_overflow_mode: 'throw' as const } : {}),
        },
      });
      return res.json<T>();
    });
  }
}
