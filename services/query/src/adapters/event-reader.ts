// Reads the events table (platform_events, written by projector-events only; see its migration):
// one project's events, filtered, in (timestamp, event_id) order either way, after a cursor, as a
// page bounded by a count and by estimated bytes (the attributes dominate: tens of KB each).
// Every access goes through the ReadModel (time limit; failures are 503s, never empty answers) and
// carries the project's retention bound (issue 30: events older than it are invisible at once).
import { RETAINED_FROM_PARAM } from '@llm/span-table';
import type { ReadModel } from '@llm/span-read';

/** The retention bound of event reads (the parameter comes from ReadModel.retention). */
const RETAINED_EVENTS_SQL = `timestamp >= fromUnixTimestamp64Micro({${RETAINED_FROM_PARAM}:Int64}, 'UTC')`;

export interface EventFilter {
  projectId: string;
  requestType?: string;
  requestId?: string;
  eventType?: string;
  eventId?: string;
  /** Inclusive time bounds, unix microseconds. */
  newestUs?: number;
  oldestUs?: number;
  order: 'asc' | 'desc';
  /** Only events strictly after this position in `order`. */
  after?: { timeUs: number; eventId: string };
  limit: number;
  /** Estimated bytes of one page: it ends before the event that would take it above (one event at least). */
  maxBytes: number;
}

export interface EventRow {
  event_id: string; request_id: string; request_type: string; event_type: string;
  time_us: number; status_code: string; status_message: string; attributes: string; created_us: number;
}

/** Estimated answer bytes of one event: its texts plus ids, times and field names. */
const EVENT_ROW_BYTES_SQL = 'length(attributes) + length(status_message) + length(status_code) + length(request_type) + length(event_type) + 256';

interface RawRow extends Omit<EventRow, 'time_us' | 'created_us'> { time_us: string | number; created_us: string | number }

export class EventReader {
  constructor(private readonly rm: ReadModel) {}

  private get table(): string { return this.rm.events; }

  /** The time of one of the project's events, or undefined. */
  async timeOf(projectId: string, eventId: string): Promise<number | undefined> {
    const rows = await this.rm.run<{ time_us: string | number }>(
      `SELECT toUnixTimestamp64Micro(timestamp) AS time_us FROM ${this.table} WHERE project_id = {p:String} AND ${RETAINED_EVENTS_SQL} AND event_id = {id:String} LIMIT 1`,
      { p: projectId, ...await this.rm.retention(projectId, 'events'), id: eventId },
    );
    return rows[0] ? Number(rows[0].time_us) : undefined;
  }

  /**
   * The page in two reads: the positions and sizes of up to `limit` matching events, then the
   * events themselves from the first position to the last one within `maxBytes` (at most that
   * many). An event landing in between the two reads may take a place in the page; the page still
   * ends at an event the next cursor continues after, so none is skipped.
   */
  async query(f: EventFilter): Promise<EventRow[]> {
    const where = ['project_id = {p:String}', RETAINED_EVENTS_SQL];
    const params: Record<string, unknown> = { p: f.projectId, ...await this.rm.retention(f.projectId, 'events'), limit: f.limit };
    const eq = (col: string, name: string, v: string | undefined): void => {
      if (v === undefined) return;
      where.push(`${col} = {${name}:String}`);
      params[name] = v;
    };
    eq('request_type', 'rt', f.requestType);
    eq('request_id', 'rid', f.requestId);
    eq('event_type', 'et', f.eventType);
    eq('event_id', 'eid', f.eventId);
    if (f.newestUs !== undefined) { where.push("timestamp <= fromUnixTimestamp64Micro({newest:Int64}, 'UTC')"); params.newest = f.newestUs; }
    if (f.oldestUs !== undefined) { where.push("timestamp >= fromUnixTimestamp64Micro({oldest:Int64}, 'UTC')"); params.oldest = f.oldestUs; }
    const dir = f.order === 'asc' ? 'ASC' : 'DESC';
    const after = f.order === 'asc' ? '>' : '<';
    const position = (name: string, cmp: string): string =>
      `(timestamp ${cmp} fromUnixTimestamp64Micro({${name}_t:Int64}, 'UTC') OR (timestamp = fromUnixTimestamp64Micro({${name}_t:Int64}, 'UTC') AND event_id ${cmp}= {${name}_id:String}))`;
    if (f.after) {
      where.push(`(timestamp ${after} fromUnixTimestamp64Micro({at:Int64}, 'UTC') OR (timestamp = fromUnixTimestamp64Micro({at:Int64}, 'UTC') AND event_id ${after} {after:String}))`);
      params.at = f.after.timeUs;
      params.after = f.after.eventId;
    }
    // FINAL: a record delivered twice is one row (ReplacingMergeTree keyed by project, time and id).
    const keys = await this.rm.run<{ event_id: string; time_us: string | number; b: string | number }>(
      `SELECT event_id, toUnixTimestamp64Micro(timestamp) AS time_us, ${EVENT_ROW_BYTES_SQL} AS b
         FROM ${this.table} FINAL
        WHERE ${where.join(' AND ')}
        ORDER BY timestamp ${dir}, event_id ${dir}
        LIMIT {limit:UInt32}`,
      params,
    );
    let take = 0;
    let bytes = 0;
    for (const k of keys) {
      bytes += Number(k.b);
      if (take > 0 && bytes > f.maxBytes) break;
      take++;
    }
    if (take === 0) return [];
    const first = keys[0]!;
    const last = keys[take - 1]!;
    // From the first position (inclusive) to the last one kept (inclusive), in page order.
    const within = [position('first', f.order === 'asc' ? '>' : '<'), position('last', f.order === 'asc' ? '<' : '>')];
    const rows = await this.rm.run<RawRow>(
      `SELECT event_id, request_id, request_type, event_type, toUnixTimestamp64Micro(timestamp) AS time_us, status_code, status_message,
              attributes, toUnixTimestamp64Micro(created_at) AS created_us
         FROM ${this.table} FINAL
        WHERE ${[...where, ...within].join(' AND ')}
        ORDER BY timestamp ${dir}, event_id ${dir}
        LIMIT {take:UInt32}`,
      { ...params, take, first_t: Number(first.time_us), first_id: first.event_id, last_t: Number(last.time_us), last_id: last.event_id },
    );
    return rows.map((r) => ({ ...r, time_us: Number(r.time_us), created_us: Number(r.created_us) }));
  }
}
