// Writes rows to the events table and keeps its horizon equal to the platform topic's retention, so
// the read model holds what a replay of the topic would rebuild (no more, no less).
import type { Clickhouse } from '@llm/clickhouse';
import type { PlatformEventRow } from '../domain/event-row.ts';

/** The events table (migrations/0001-platform-events.sql); the query service reads the same name. */
export const EVENTS_TABLE = 'platform_events';

export async function insertEventRows(ch: Clickhouse, rows: PlatformEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await ch.client.insert({ table: `${ch.database}.${EVENTS_TABLE}`, values: rows, format: 'JSONEachRow' });
}

/** Rows older than the topic's retention are removed by ClickHouse (none when retention is forever). */
export async function applyRetention(ch: Clickhouse, retentionMs: number | undefined): Promise<void> {
  const table = `${ch.database}.${EVENTS_TABLE}`;
  const query = retentionMs !== undefined && retentionMs > 0
    ? `ALTER TABLE ${table} MODIFY TTL toDateTime(timestamp) + toIntervalSecond(${Math.ceil(retentionMs / 1000)})`
    : `ALTER TABLE ${table} REMOVE TTL`;
  try {
    // Existing parts are not rewritten at once: expired rows go with the next merges.
    await ch.client.command({ query, clickhouse_settings: { materialize_ttl_after_modify: 0 } });
  } catch (err) {
    // REMOVE TTL on a table that has none is an error in some versions: nothing to do then.
    if (!(retentionMs === undefined || retentionMs <= 0)) throw err;
  }
}
