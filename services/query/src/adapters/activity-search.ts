// Sessions and users pages without reading every span. The span table keeps two aggregate
// projections (migration 0004): per project and id, the earliest and latest start of any stored row.
// Without FINAL they also count superseded versions, so they are bounds: the earliest start can only
// be later in truth, the latest only earlier. A bound is exact when the current version of a span of
// that id starts exactly there, which one FINAL read of those instants checks (the instants are
// primary-key ranges). The few ids whose bound fails (a span moved, deleted or relabelled and not yet
// merged away) get their exact value from the spans themselves. Time windows take the exact path.
// Retention: a bound older than the project's horizon (its earliest span expired, or all of them) is
// not exact either, and its value comes from the retained spans (none: the id is gone). The bounds
// stay a read of the projections, which a predicate on start_time would rule out.
import { RETAINED_SPANS_SQL } from '@llm/span-table';
import type { ReadModel, SpanReader } from '@llm/span-read';

export interface ActivityQuery {
  projectId: string; kind: 'session' | 'user'; realtime: boolean; oldestUs?: number; newestUs?: number;
  order: 'ascending' | 'descending'; limit: number; after?: { t: number; id: string };
}
export interface ActivityRow { id: string; activity_us: string }

/** ClickHouse orders strings by bytes; so must the page cut here. */
const byteCompare = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

export class ActivitySearcher {
  constructor(private readonly rm: ReadModel, private readonly exact: SpanReader) {}

  async activity(q: ActivityQuery): Promise<ActivityRow[]> {
    if (q.oldestUs !== undefined || q.newestUs !== undefined) return this.exact.activity(q);
    // `kind` and `realtime` pick column and function names, never user text.
    const col = q.kind === 'user' ? 'any_user_id' : 'any_session_id';
    const agg = q.realtime ? 'max' : 'min';
    const spans = this.rm.spans;
    const retained = await this.rm.retention(q.projectId, 'spans');
    const rows = await this.rm.run<{ id: string; us: string; exact: number }>(
      `WITH bounds AS (
         SELECT ${col} AS id, ${agg}(start_time) AS t FROM ${spans}
          WHERE project_id = {p:String} AND is_deleted = 0 AND ${col} != '' GROUP BY id)
       SELECT id, toString(toUnixTimestamp64Micro(t)) AS us,
              t >= fromUnixTimestamp64Micro({retained_from_us:Int64}, 'UTC')
                AND (id, t) IN (SELECT ${col}, start_time FROM ${spans} FINAL
                           WHERE project_id = {p:String} AND is_deleted = 0 AND start_time IN (SELECT t FROM bounds)) AS exact
         FROM bounds`,
      { p: q.projectId, ...retained },
    );
    const values = new Map(rows.filter((r) => Number(r.exact) === 1).map((r) => [r.id, Number(r.us)]));
    const stale = rows.filter((r) => Number(r.exact) !== 1).map((r) => r.id);
    if (stale.length > 0) {
      const fixed = await this.rm.run<{ id: string; us: string }>(
        `SELECT ${col} AS id, toString(toUnixTimestamp64Micro(${agg}(start_time))) AS us FROM ${spans} FINAL
          WHERE project_id = {p:String} AND ${RETAINED_SPANS_SQL} AND is_deleted = 0 AND ${col} IN {ids:Array(String)} GROUP BY id`,
        { p: q.projectId, ...retained, ids: stale },
      );
      // An id none of whose current (retained) spans carries it any more is gone.
      for (const r of fixed) values.set(r.id, Number(r.us));
    }
    const sign = q.order === 'ascending' ? 1 : -1;
    const cmp = (a: [string, number], b: [string, number]): number => sign * ((a[1] - b[1]) || byteCompare(a[0], b[0]));
    const after = q.after ? ([q.after.id, q.after.t] as [string, number]) : undefined;
    return [...values]
      .filter((e) => after === undefined || cmp(e, after) > 0)
      .sort(cmp)
      .slice(0, q.limit + 1)
      .map(([id, us]) => ({ id, activity_us: String(us) }));
  }
}
