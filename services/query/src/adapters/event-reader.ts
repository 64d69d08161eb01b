// Reads the events table (platform_events, written by projector-events only; see its migration):
// one project's events, filtered, in (timestamp, event_id) order either way, after a cursor.
// Every access goes through the ReadModel (time limit; failures are 503s, never empty answers).
import type { ReadModel } from './read-model.ts';

/** The events table; its schema lives in services/projector-events/migrations. */
const EVENTS_TABLE = 'platform_events';

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
}

export interface EventRow {
  event_id: string; request_id: string; request_type: string; event_type: string;
  time_us: number; status_code: string; status_message: string; attributes: string; created_us: number;
}

interface RawRow extends Omit<EventRow, 'time_us' | 'created_us'> { time_us: string | number; created_us: string | number }

export class EventReader {
  constructor(private readonly rm: ReadModel) {}

  private get table(): string { return `${this.rm.ch.database}.${EVENTS_TABLE}`; }

  /** The time of one of the project's events, or undefined. */
  async timeOf(projectId: string, eventId: string): Promise<number | undefined> {
    const rows = await this.rm.run<{ time_us: string | number }>(
      `SELECT toUnixTimestamp64Micro(timestamp) AS time_us FROM ${this.table} WHERE project_id = {p:String} AND event_id = {id:String} LIMIT 1`,
      { p: projectId, id: eventId },
    );
    return rows[0] ? Number(rows[0].time_us) : undefined;
  }

  async query(f: EventFilter): Promise<EventRow[]> {
    const where = ['project_id = {p:String}'];
    const params: Record<string, unknown> = { p: f.projectId, limit: f.limit };
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
    if (f.after) {
      const cmp = f.order === 'asc' ? '>' : '<';
      where.push(`(timestamp ${cmp} fromUnixTimestamp64Micro({at:Int64}, 'UTC') OR (timestamp = fromUnixTimestamp64Micro({at:Int64}, 'UTC') AND event_id ${cmp} {after:String}))`);
      params.at = f.after.timeUs;
      params.after = f.after.eventId;
    }
    // FINAL: a record delivered twice is one row (ReplacingMergeTree keyed by project, time and id).
    const rows = await this.rm.run<RawRow>(
      `SELECT event_id, request_id, request_type, event_type, toUnixTimestamp64Micro(timestamp) AS time_us, status_code, status_message,
              attributes, toUnixTimestamp64Micro(created_at) AS created_us
         FROM ${this.table} FINAL
        WHERE ${where.join(' AND ')}
        ORDER BY timestamp ${dir}, event_id ${dir}
        LIMIT {limit:UInt32}`,
      params,
    );
    return rows.map((r) => ({ ...r, time_us: Number(r.time_us), created_us: Number(r.created_us) }));
  }
}
